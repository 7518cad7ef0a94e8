using Microsoft.AspNetCore.Mvc;
using PerfService.IntegrationTests.Ingestion;
using PerfService.Core.Comparison;

namespace PerfService.IntegrationTests.Security;

/// <summary>
/// Issue 12 §3: nobody forges another project's results. A run may name a job only when the job is its project's,
/// Running, and held by an agent of the posting token; the pull request's verdicts come from those runs alone.
/// </summary>
public class RunForgeryTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private static byte[] Samples(double ns, int seed) => Generic.Times(("Fibers.Switch", Generic.Around(ns, 0.01, 20, seed)));

    private static RunMetadata Meta(string project, long jobId, string role, string commit, string? agent = null) => new()
    {
        Project = project, Commit = commit, BaseCommit = "aaaa0001", PullRequest = 12, Profile = "ryzen-9950x", JobId = jobId,
        Suite = "fibers", Role = role, Agent = agent,
    };

    [Fact]
    public async Task A_job_is_fed_only_by_the_agent_holding_it_and_its_verdict_comes_from_those_runs_alone()
    {
        await app.CreateProjectAsync("victim");
        await app.CreateProjectAsync("attacker");
        await AgentClient.EnqueueAsync(app, new { project = "victim", commit = "bbbb0002", baseCommit = "aaaa0001", pullRequest = 12, profiles = new[] { "ryzen-9950x" }, rounds = 1 });
        var holder = await AgentClient.RegisterAsync(app, "victim-agent", "ryzen-9950x");
        var job = (await holder.ClaimAsync())!;
        var mallory = await AgentClient.RegisterAsync(app, "mallory-agent", "i7-4790k");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);

        // An ingest token may not name a job at all, in its own project or the victim's.
        await Refused(ingest, Meta("attacker", job.JobId, "head", "bbbb0002"), 403, "only an agent token");
        await Refused(ingest, Meta("victim", job.JobId, "head", "bbbb0002"), 403, "only an agent token");
        // Another agent token: its own project's run cannot borrow the victim's job, nor can it post into the job.
        await Refused(mallory.Http, Meta("attacker", job.JobId, "head", "bbbb0002"), 403, "is not a job of project 'attacker'");
        await Refused(mallory.Http, Meta("victim", job.JobId, "head", "bbbb0002"), 409, "did not register");
        await Refused(mallory.Http, Meta("victim", job.JobId, "head", "bbbb0002", agent: "victim-agent"), 409, "did not register");
        // The holder's token cannot pass another agent's name off as the holder.
        await Refused(holder.Http, Meta("victim", job.JobId, "head", "bbbb0002", agent: "mallory-agent"), 409, "held by agent 'victim-agent'");
        await Refused(holder.Http, Meta("victim", 987654, "head", "bbbb0002"), 403, "is not a job of project 'victim'");

        // The honest path: the holder posts base and head, completes, and the verdict is judged.
        Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(holder.Http, Meta("victim", job.JobId, "base", "aaaa0001"), null, ("r.json", Samples(100, 2)))).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(holder.Http, Meta("victim", job.JobId, "head", "bbbb0002", "victim-agent"), null, ("r.json", Samples(100, 3)))).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await holder.CompleteAsync(job.JobId)).StatusCode);
        // Once the job is finished, even its own agent cannot add to it.
        await Refused(holder.Http, Meta("victim", job.JobId, "head", "bbbb0002"), 409, "is Succeeded");

        var verdicts = await Eventually.WaitAsync(() => app.WithDbAsync(db => db.Verdicts.Where(v => v.JobId == job.JobId).ToListAsync()), v => v.Count > 0);
        var verdict = Assert.Single(verdicts);
        // The forged posts (300 ns heads) would have made it a regression; only the honest 100 ns rounds count.
        Assert.NotEqual(Core.Comparison.Outcome.Regression, verdict.Outcome);
        Assert.Equal((20, 20), (verdict.BaseSamples, verdict.HeadSamples));
        var runs = await app.WithDbAsync(db => db.Runs.Where(r => r.JobId == job.JobId).Select(r => new { r.ProjectId, r.AgentId }).ToListAsync());
        Assert.Equal(2, runs.Count);
        Assert.All(runs, r => Assert.Equal(holder.Id, r.AgentId));
        Assert.Equal(0, await app.WithDbAsync(db => db.Runs.CountAsync(r => db.Projects.Any(p => p.Id == r.ProjectId && p.Slug == "attacker"))));
    }

    [Fact]
    public async Task An_agent_name_held_by_a_live_token_cannot_be_registered_by_another_but_admin_and_rotation_can()
    {
        var owner = await app.ClientWithScopesAsync(Scopes.Agent);
        var original = await AgentClient.RegisterAsync(app, "named-agent", "m1-pro", owner);
        // The owner re-registering (an agent restart) is the honest path.
        Assert.Equal(original.Id, (await AgentClient.RegisterAsync(app, "named-agent", "m1-pro", owner)).Id);

        var thief = await app.ClientWithScopesAsync(Scopes.Agent);
        var taken = await Register(thief, "named-agent");
        Assert.Equal(HttpStatusCode.Conflict, taken.StatusCode);
        Assert.Contains("registered by another token", (await taken.Content.ReadFromJsonAsync<ProblemDetails>())!.Detail);
        Assert.Equal(HttpStatusCode.Forbidden, (await thief.PostAsync($"/api/v1/agents/{original.Id}/claim?waitSeconds=0", null)).StatusCode);

        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        Assert.Equal(HttpStatusCode.OK, (await Register(admin, "named-agent")).StatusCode);

        // Token rotation: once the holding token is revoked, a new token takes the name.
        var rotated = await app.ClientWithScopesAsync(Scopes.Agent);
        await AgentClient.RegisterAsync(app, "rotating-agent", "m1-pro", owner);
        Assert.Equal(HttpStatusCode.Conflict, (await Register(rotated, "rotating-agent")).StatusCode);
        var ownerId = await app.WithDbAsync(db => db.Agents.Where(a => a.Name == "rotating-agent").Select(a => a.TokenId!.Value).SingleAsync());
        await app.WithDbAsync(db => db.Tokens.Where(t => t.Id == ownerId).ExecuteUpdateAsync(s => s.SetProperty(t => t.RevokedAt, DateTimeOffset.UtcNow)));
        Assert.Equal(HttpStatusCode.OK, (await Register(rotated, "rotating-agent")).StatusCode);
    }

    private static Task<HttpResponseMessage> Register(HttpClient client, string name) => client.PostAsJsonAsync("/api/v1/agents/register",
        new RegisterAgentRequest(name, "m1-pro", new MachineInfo("Test CPU", 2, 2, 1L << 30, "Linux", "6.1", new Dictionary<string, string>())));

    private static async Task Refused(HttpClient client, RunMetadata meta, int status, string why)
    {
        var response = await IngestionTests.Post(client, meta, null, ("r.json", Samples(300, 9)));
        Assert.Equal(status, (int)response.StatusCode);
        var problem = (await response.Content.ReadFromJsonAsync<ProblemDetails>())!;
        Assert.Contains(why, problem.Detail);
    }
}
