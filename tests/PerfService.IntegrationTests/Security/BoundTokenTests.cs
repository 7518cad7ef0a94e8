using System.Net.Http.Headers;
using PerfService.AgentJobs;

namespace PerfService.IntegrationTests.Security;

/// <summary>
/// Tokens bound to one project, used as an attacker would against another: each attack refused, the honest use of
/// the same token still working. Own service per test: claims take whatever the queue holds.
/// </summary>
public class BoundTokenTests : OwnServiceTests
{
    private async Task<(long A, long B)> TwoProjectsAsync()
    {
        await app.CreateProjectAsync("team-a", isPublic: false);
        await app.CreateProjectAsync("team-b", isPublic: false);
        return await app.WithDbAsync(async db => (
            await db.Projects.Where(p => p.Slug == "team-a").Select(p => p.Id).SingleAsync(),
            await db.Projects.Where(p => p.Slug == "team-b").Select(p => p.Id).SingleAsync()));
    }

    private async Task<HttpClient> BoundClientAsync(string scope, long project)
    {
        var token = await app.WithDbAsync(db => TokenCommands.CreateAsync(db, $"bound-{scope}-{project}", [scope], project));
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return client;
    }

    [Fact]
    public async Task An_agent_bound_to_a_project_claims_only_that_projects_jobs()
    {
        var (a, _) = await TwoProjectsAsync();
        // B's job is queued first and has the higher priority: an unconfined claim would take it.
        await AgentClient.EnqueueAsync(app, new { project = "team-b", commit = "bbbb2222", baseCommit = "aaaa1111", pullRequest = 3, profiles = new[] { "m1-pro" } });
        await AgentClient.EnqueueAsync(app, new { project = "team-a", commit = "aaaa3333", profiles = new[] { "m1-pro" } });

        var agentOfA = await AgentClient.RegisterAsync(app, "a-machine", "m1-pro", await BoundClientAsync(Scopes.Agent, a));
        var job = await agentOfA.ClaimAsync();
        Assert.Equal("team-a", job!.Project);
        Assert.Null(await agentOfA.ClaimAsync());

        var shared = await AgentClient.RegisterAsync(app, "shared-machine", "m1-pro");
        Assert.Equal("team-b", (await shared.ClaimAsync())!.Project);
    }

    [Fact]
    public async Task A_bound_agent_cannot_report_on_another_projects_job()
    {
        var (a, b) = await TwoProjectsAsync();
        var jobOfB = (await AgentClient.EnqueueAsync(app, new { project = "team-b", commit = "bbbb4444", profiles = new[] { "m1-pro" } }))[0];
        var agentOfB = await AgentClient.RegisterAsync(app, "b-machine", "m1-pro", await BoundClientAsync(Scopes.Agent, b));
        Assert.Equal(jobOfB.Id, (await agentOfB.ClaimAsync())!.JobId);

        // An admin token bound to A (it may act for any agent) tries to finish B's running job: B is hidden from it.
        var adminOfA = new AgentClient(await BoundClientAsync(Scopes.Admin, a), agentOfB.Id);
        Assert.Equal(HttpStatusCode.NotFound, (await adminOfA.CompleteAsync(jobOfB.Id, succeeded: false, error: "sabotage")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await adminOfA.HeartbeatAsync(jobOfB.Id)).StatusCode);
        Assert.Equal("Running", await app.WithDbAsync(db => db.Jobs.Where(j => j.Id == jobOfB.Id).Select(j => j.State.ToString()).SingleAsync()));

        Assert.Equal(HttpStatusCode.NoContent, (await agentOfB.CompleteAsync(jobOfB.Id)).StatusCode);
    }

    [Fact]
    public async Task A_bound_admin_administers_only_its_project()
    {
        var (a, _) = await TwoProjectsAsync();
        await app.CreateProjectAsync("public-c");
        var adminOfA = await BoundClientAsync(Scopes.Admin, a);
        var rules = new { thresholds = new[] { new { pattern = "*", threshold = 0.5 } } };

        Assert.Equal(HttpStatusCode.NotFound, (await adminOfA.PutAsJsonAsync("/api/v1/projects/team-b/thresholds", rules)).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await adminOfA.PutAsJsonAsync("/api/v1/projects/public-c/thresholds", rules)).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await adminOfA.PatchAsJsonAsync("/api/v1/projects/team-b", new { isPublic = true })).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await adminOfA.PatchAsJsonAsync("/api/v1/projects/public-c", new { isPublic = false })).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await adminOfA.PostAsJsonAsync("/api/v1/jobs", new { project = "public-c", commit = "cccc1111" })).StatusCode);
        Assert.Equal(HttpStatusCode.UnprocessableEntity, (await adminOfA.PostAsJsonAsync("/api/v1/jobs", new { project = "team-b", commit = "cccc1111" })).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await adminOfA.PostAsJsonAsync("/api/v1/projects", new { slug = "team-d", name = "d" })).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await adminOfA.GetAsync("/hangfire")).StatusCode);
        Assert.False(await app.WithDbAsync(db => db.ThresholdOverrides.AnyAsync()));
        Assert.False(await app.WithDbAsync(db => db.Projects.AnyAsync(p => p.Slug == "team-b" && p.IsPublic)));
        Assert.Equal(0, await app.WithDbAsync(db => db.Jobs.CountAsync()));

        // Its own project, it administers.
        Assert.Equal(HttpStatusCode.OK, (await adminOfA.PutAsJsonAsync("/api/v1/projects/team-a/thresholds", rules)).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await adminOfA.PostAsJsonAsync("/api/v1/jobs", new { project = "team-a", commit = "aaaa1111", profiles = new[] { "m1-pro" } })).StatusCode);
    }

    [Fact]
    public async Task A_token_is_bound_by_slug_and_a_project_that_does_not_exist_is_an_error()
    {
        var (a, _) = await TwoProjectsAsync();
        Assert.Equal(a, await app.WithDbAsync(db => TokenCommands.ProjectAsync(db, "team-a", null)));
        Assert.Equal(a, await app.WithDbAsync(db => TokenCommands.ProjectAsync(db, null, a.ToString())));
        Assert.Null(await app.WithDbAsync(db => TokenCommands.ProjectAsync(db, null, null)));
        await Assert.ThrowsAsync<ArgumentException>(() => app.WithDbAsync(db => TokenCommands.ProjectAsync(db, "no-such-team", null)));
        await Assert.ThrowsAsync<ArgumentException>(() => app.WithDbAsync(db => TokenCommands.ProjectAsync(db, null, "team-a")));
        await Assert.ThrowsAsync<ArgumentException>(() => app.WithDbAsync(db => TokenCommands.CreateAsync(db, "ghost", [Scopes.Read], 999_999)));
        Assert.False(await app.WithDbAsync(db => db.Tokens.AnyAsync(t => t.Name == "ghost")));
    }
}
