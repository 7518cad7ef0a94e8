using PerfService.AgentJobs;

namespace PerfService.IntegrationTests.AgentJobs;

/// <summary>Short leases on a clock the tests move: expiry is observed without waiting, however loaded the machine.</summary>
public sealed class ShortLeaseApp : PerfServiceApp
{
    protected override bool FakeClock => true;

    protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?>
    {
        ["Jobs:LeaseSeconds"] = "3",
        ["Jobs:MaxAttempts"] = "2",
    };
}

/// <summary>Leases that run out and leases that heartbeats keep; each test has its own service, as in <see cref="JobQueueTests"/>.</summary>
public class LeaseTests : OwnServiceTests<ShortLeaseApp>
{
    private Task<List<JobDto>> EnqueueAsync(object request) => AgentClient.EnqueueAsync(app, request);

    [Fact]
    public async Task An_expired_lease_returns_the_job_and_the_last_attempt_fails_it()
    {
        await app.CreateProjectAsync("queue-lease");
        await EnqueueAsync(new { project = "queue-lease", commit = "eeee5555", profiles = new[] { "m1-pro" } });
        var crashed = await AgentClient.RegisterAsync(app, "crashing-agent", "m1-pro");
        var rescuer = await AgentClient.RegisterAsync(app, "rescuing-agent", "m1-pro");

        var job = (await crashed.ClaimAsync())!;
        Assert.Equal(1, job.Attempt);
        Assert.Null(await rescuer.ClaimAsync());
        app.Clock.Advance(TimeSpan.FromSeconds(4)); // the crashed agent sends no heartbeat

        var retaken = await rescuer.ClaimAsync();
        Assert.Equal(job.JobId, retaken!.JobId);
        Assert.Equal(2, retaken.Attempt);
        Assert.Equal(HttpStatusCode.Conflict, (await crashed.HeartbeatAsync(job.JobId)).StatusCode);
        Assert.Equal(HttpStatusCode.Conflict, (await crashed.CompleteAsync(job.JobId)).StatusCode);

        app.Clock.Advance(TimeSpan.FromSeconds(4)); // the rescuer dies too: that was the last attempt
        Assert.Null(await rescuer.ClaimAsync());
        var final = (await rescuer.Http.GetFromJsonAsync<JobDto>($"/api/v1/jobs/{job.JobId}"))!;
        Assert.Equal("Failed", final.State);
        Assert.Contains("lease expired", final.Reason);
    }

    [Fact]
    public async Task Heartbeats_keep_the_lease_and_a_newer_push_cancels_the_running_job()
    {
        await app.CreateProjectAsync("queue-cancel");
        await EnqueueAsync(new { project = "queue-cancel", commit = "ffff0001", baseCommit = "ffff0000", pullRequest = 3, profiles = new[] { "ryzen-9950x" } });
        var agent = await AgentClient.RegisterAsync(app, "cancel-agent", "ryzen-9950x");
        var job = (await agent.ClaimAsync())!;
        for (var i = 0; i < 4; i++) // four seconds of heartbeats: longer than the lease they keep
        {
            app.Clock.Advance(TimeSpan.FromSeconds(1));
            var beat = (await (await agent.HeartbeatAsync(job.JobId, $"step {i}")).Content.ReadFromJsonAsync<HeartbeatResponse>())!;
            Assert.False(beat.Cancel);
        }

        await EnqueueAsync(new { project = "queue-cancel", commit = "ffff0002", baseCommit = "ffff0000", pullRequest = 3, profiles = new[] { "ryzen-9950x" } });
        var response = (await (await agent.HeartbeatAsync(job.JobId)).Content.ReadFromJsonAsync<HeartbeatResponse>())!;
        Assert.True(response.Cancel);
        Assert.Contains("superseded", response.Reason);
        Assert.Equal(HttpStatusCode.NoContent, (await agent.CompleteAsync(job.JobId, false, "cancelled")).StatusCode);
        Assert.Equal("ffff0002", (await agent.ClaimAsync())!.Commit);
    }
}
