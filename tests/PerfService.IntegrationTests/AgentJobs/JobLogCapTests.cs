using PerfService.AgentJobs;

namespace PerfService.IntegrationTests.AgentJobs;

public sealed class SmallLogApp : PerfServiceApp
{
    public const int Cap = 4096;

    protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?> { ["Jobs:MaxLogCharacters"] = Cap.ToString() };
}

/// <summary>Issue 12 §4: an agent cannot grow a job's log without bound; the cap is applied in SQL and keeps the newest lines.</summary>
public class JobLogCapTests(SmallLogApp app) : IClassFixture<SmallLogApp>
{
    [Fact]
    public async Task A_flood_of_log_lines_is_cut_to_the_cap_keeping_the_newest_behind_one_marker()
    {
        await app.CreateProjectAsync("chatty");
        await AgentClient.EnqueueAsync(app, new { project = "chatty", commit = "c0ffee01", profiles = new[] { "ryzen-9950x" } });
        var agent = await AgentClient.RegisterAsync(app, "chatty-agent", "ryzen-9950x");
        var job = (await agent.ClaimAsync())!;

        for (var beat = 0; beat < 5; beat++)
        {
            var lines = Enumerable.Range(0, 100).Select(i => $"beat {beat} line {i:000} " + new string('x', 40)).ToList();
            var response = await agent.Http.PostAsJsonAsync($"/api/v1/jobs/{job.JobId}/heartbeat", new HeartbeatRequest(agent.Id, null, lines));
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            var log = await LogAsync(job.JobId);
            Assert.InRange(log.Length, 1, SmallLogApp.Cap);
            Assert.EndsWith($"beat {beat} line 099 " + new string('x', 40) + "\n", log);
        }
        Assert.Equal(HttpStatusCode.NoContent, (await agent.Http.PostAsJsonAsync($"/api/v1/jobs/{job.JobId}/complete",
            new CompleteJobRequest(agent.Id, true, null, ["the end"]))).StatusCode);

        var final = await LogAsync(job.JobId);
        Assert.InRange(final.Length, 1, SmallLogApp.Cap);
        Assert.StartsWith(JobQueue.LogMarker, final);
        Assert.Equal(2, final.Split(JobQueue.LogMarker).Length); // exactly one marker
        Assert.EndsWith("the end\n", final);
        Assert.DoesNotContain("beat 0 line", final);
    }

    private Task<string> LogAsync(long jobId) => app.WithDbAsync(db => db.Jobs.Where(j => j.Id == jobId).Select(j => j.Log).SingleAsync());
}
