using System.Collections.Concurrent;
using System.Diagnostics;
using PerfService.AgentJobs;

namespace PerfService.IntegrationTests.AgentJobs;

/// <summary>Each test gets its own service and database: claims are per profile, so tests sharing a queue would take each other's jobs.</summary>
public class JobQueueTests : OwnServiceTests
{
    private Task<List<JobDto>> EnqueueAsync(object request) => AgentClient.EnqueueAsync(app, request);

    [Fact]
    public async Task Jobs_go_to_agents_of_their_profile_pull_requests_first()
    {
        await app.CreateProjectAsync("queue-profiles");
        await EnqueueAsync(new { project = "queue-profiles", commit = "aaaa1111", profiles = new[] { "m1-pro" } });
        var pr = await EnqueueAsync(new { project = "queue-profiles", commit = "bbbb2222", baseCommit = "aaaa1111", pullRequest = 7, profiles = new[] { "m1-pro", "i7-4790k" } });
        Assert.Equal(2, pr.Count);

        var m1 = await AgentClient.RegisterAsync(app, "m1-agent", "m1-pro");
        var first = await m1.ClaimAsync();
        Assert.NotNull(first);
        Assert.Equal("bbbb2222", first!.Commit);
        Assert.Equal("aaaa1111", first.BaseCommit);
        Assert.Equal("m1-pro", first.Profile);
        Assert.True(first.Rounds >= 2, "a pull-request job runs base and head interleaved");
        var second = await m1.ClaimAsync();
        Assert.Equal("aaaa1111", second!.Commit);
        Assert.Null(await m1.ClaimAsync());
    }

    [Fact]
    public async Task A_waiting_claim_wakes_when_a_job_is_queued()
    {
        await app.CreateProjectAsync("queue-longpoll");
        var agent = await AgentClient.RegisterAsync(app, "longpoll-agent", "ryzen-9950x");
        Task<DateTimeOffset> SeenAsync() => app.WithDbAsync(db => db.Agents.Where(a => a.Name == "longpoll-agent").Select(a => a.LastSeenAt).SingleAsync());
        var registered = await SeenAsync();
        var clock = Stopwatch.StartNew();
        var claim = agent.ClaimAsync(waitSeconds: 30);
        // The service stamps the agent as seen when it takes the claim, then finds no job and waits.
        Assert.True(await Eventually.WaitAsync(SeenAsync, seen => seen > registered, TimeSpan.FromSeconds(20)) > registered, "the claim never reached the service");
        Assert.False(claim.IsCompleted);
        await EnqueueAsync(new { project = "queue-longpoll", commit = "cccc3333", profiles = new[] { "ryzen-9950x" } });
        var job = await claim;
        Assert.NotNull(job);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(20), "the claim returned because of the job, not the timeout");
    }

    [Fact]
    public async Task Many_agents_claiming_at_once_never_share_a_job()
    {
        await app.CreateProjectAsync("queue-race");
        for (var i = 0; i < 30; i++) await EnqueueAsync(new { project = "queue-race", commit = $"dddd{i:0000}", profiles = new[] { "i7-4790k" } });
        var agents = await Task.WhenAll(Enumerable.Range(0, 6).Select(i => AgentClient.RegisterAsync(app, $"race-agent-{i}", "i7-4790k")));
        var claimed = new ConcurrentBag<long>();
        await Task.WhenAll(agents.Select(async agent =>
        {
            while (await agent.ClaimAsync() is { } job)
            {
                claimed.Add(job.JobId);
                Assert.Equal(HttpStatusCode.NoContent, (await agent.CompleteAsync(job.JobId)).StatusCode);
            }
        }));
        Assert.Equal(30, claimed.Count);
        Assert.Equal(30, claimed.Distinct().Count());
    }

    [Fact]
    public async Task Agent_tokens_cannot_queue_jobs_and_only_act_for_their_own_agents()
    {
        await app.CreateProjectAsync("queue-scopes");
        var agentHttp = await app.ClientWithScopesAsync(Scopes.Agent);
        var response = await agentHttp.PostAsJsonAsync("/api/v1/jobs", new { project = "queue-scopes", commit = "abab1212" });
        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);

        var mine = await AgentClient.RegisterAsync(app, "scoped-agent", "m1-pro");
        var other = new AgentClient(await app.ClientWithScopesAsync(Scopes.Agent), mine.Id);
        Assert.Equal(HttpStatusCode.Forbidden, (await other.Http.PostAsync($"/api/v1/agents/{mine.Id}/claim?waitSeconds=0", null)).StatusCode);
    }

    [Fact]
    public async Task Registration_flags_a_machine_that_is_not_its_profile()
    {
        var http = await app.ClientWithScopesAsync(Scopes.Agent);
        var machine = new MachineInfo("Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", 1, 2, 1L << 33, "Linux", "6.1", new Dictionary<string, string>());
        var registered = (await (await http.PostAsJsonAsync("/api/v1/agents/register", new RegisterAgentRequest("sim", "ryzen-9950x", machine)))
            .Content.ReadFromJsonAsync<RegisterAgentResponse>())!;
        Assert.True(registered.ProfileMismatch);
        Assert.Contains("AMD Ryzen 9 9950X", registered.MismatchReason);

        var real = machine with { CpuModel = "Intel(R) Core(TM) i7-4790K CPU @ 4.00GHz", LogicalCores = 8 };
        var match = (await (await http.PostAsJsonAsync("/api/v1/agents/register", new RegisterAgentRequest("real", "i7-4790k", real)))
            .Content.ReadFromJsonAsync<RegisterAgentResponse>())!;
        Assert.False(match.ProfileMismatch);
    }
}
