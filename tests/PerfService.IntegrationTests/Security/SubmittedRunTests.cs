using System.Net.Http.Headers;
using System.Text.Json;
using PerfService.IntegrationTests.PullRequests;
using PerfService.IntegrationTests.Ingestion;

namespace PerfService.IntegrationTests.Security;

/// <summary>
/// Runs posted without a job: they cannot borrow an agent's name, and those posted for a pull request never replace
/// what the agents measure for it (the report, which the status, check and comment follow).
/// </summary>
public class SubmittedRunTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private static RunMetadata Meta(string project, string commit, string? agent = null, int? pullRequest = null) => new()
    {
        Project = project, Commit = commit, Profile = "m1-pro", Branch = pullRequest is null ? "main" : "feature", Agent = agent,
        PullRequest = pullRequest, BaseCommit = pullRequest is null ? null : "ab0005", Suite = "fibers",
    };

    private static (string, byte[]) Samples(double ns) => ("r.json", Generic.Times(("Fibers.Switch", Generic.Around(ns, 0.01, 20, seed: 5))));

    [Fact]
    public async Task A_run_without_a_job_is_attributed_only_to_an_agent_of_the_posting_token()
    {
        await app.CreateProjectAsync("named-victim", isPublic: false);
        await app.CreateProjectAsync("named-attacker");
        var victimProject = await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == "named-victim").Select(p => p.Id).SingleAsync());
        var victimToken = app.CreateClient();
        victimToken.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer",
            await app.WithDbAsync(db => TokenCommands.CreateAsync(db, "victim-agent-token", [Scopes.Agent], victimProject)));
        var victim = await AgentClient.RegisterAsync(app, "victim-private-agent", "m1-pro", victimToken);
        var fleet = await AgentClient.RegisterAsync(app, "fleet-agent", "m1-pro");

        // The attack: an ingest token's run names another project's private agent, or a fleet agent.
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        foreach (var (agent, commit) in new[] { ("victim-private-agent", "ee000001"), ("fleet-agent", "ee000002") })
            Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, Meta("named-attacker", commit, agent), null, Samples(100))).StatusCode);
        Assert.Equal([null, null], await app.WithDbAsync(db => db.Runs.Where(r => r.Project!.Slug == "named-attacker").OrderBy(r => r.Id).Select(r => r.AgentId).ToListAsync()));

        // The honest path: an agent's own token names it.
        Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(victim.Http, Meta("named-victim", "ee000003", "victim-private-agent"), null, Samples(100))).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(fleet.Http, Meta("named-attacker", "ee000004", "fleet-agent"), null, Samples(100))).StatusCode);
        Assert.Equal(victim.Id, await app.WithDbAsync(db => db.Runs.Where(r => r.Commit!.Sha == "ee000003").Select(r => r.AgentId).SingleAsync()));
        Assert.Equal(fleet.Id, await app.WithDbAsync(db => db.Runs.Where(r => r.Commit!.Sha == "ee000004").Select(r => r.AgentId).SingleAsync()));
    }

    [Fact]
    public async Task A_submitted_run_does_not_replace_the_agents_job_of_a_pull_request()
    {
        await app.CreateProjectAsync("submit-over");
        await PullRequestJobs.SeedMainAsync(app, "submit-over", "m1-pro", "ab00", "Fibers.Switch", [100, 100, 100, 100, 100, 100]);
        // The agents' job for the real head waits (queued, as an approved or member's pull request would).
        await AgentClient.EnqueueAsync(app, new { project = "submit-over", commit = "cc000001", baseCommit = "ab0005", pullRequest = 4, profiles = new[] { "m1-pro" } });

        // The attack: an ingest token posts fast results for the same pull request, at the head and at another commit.
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        foreach (var commit in new[] { "cc000001", "dd000001" })
            Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, Meta("submit-over", commit, pullRequest: 4), null, Samples(100))).StatusCode);
        await Eventually.WaitAsync(() => app.WithDbAsync(db => db.Jobs.CountAsync(j => j.PullRequest == 4 && j.Kind == Data.Entities.JobKind.Submitted)), n => n == 2);
        await Eventually.WaitAsync(() => app.WithDbAsync(db => db.Verdicts.CountAsync(v => db.Jobs.Any(j => j.Id == v.JobId && j.PullRequest == 4))), n => n > 0);

        var report = JsonDocument.Parse(await app.CreateClient().GetStringAsync("/api/v1/projects/submit-over/pulls/4/report")).RootElement;
        Assert.Equal("cc000001", report.GetProperty("headCommit").GetString());
        Assert.Equal("m1-pro", Assert.Single(report.GetProperty("pendingProfiles").EnumerateArray()).GetString());
        Assert.Empty(report.GetProperty("rows").EnumerateArray());
    }
}
