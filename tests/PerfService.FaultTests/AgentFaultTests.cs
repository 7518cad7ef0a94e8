using System.Net.Http.Json;
using System.Text.Json;
using PerfService.Core.Contracts;
using PerfService.FaultTests.Infrastructure;
using Xunit.Abstractions;

namespace PerfService.FaultTests;

/// <summary>Real agent processes against the real service: killed agents, a service that goes away while an agent
/// holds results, a spool that cannot be written, repeats, and shared tokens.</summary>
public sealed class AgentFaultTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Long = TimeSpan.FromSeconds(90);

    [Fact]
    public async Task An_agent_killed_mid_suite_is_replaced_after_its_lease_and_the_job_is_stored_once()
    {
        // A 6 s lease, which the agent renews every 2 s (a third of it): short enough to wait out, long enough that a live
        // agent on a loaded machine never loses it. The second agent starts only once the first is dead.
        await using var world = await AgentWorld.StartAsync("agent-kill", new Dictionary<string, string?> { ["Jobs__LeaseSeconds"] = "6" });
        world.Repo.Hold();
        var job = await world.EnqueueAsync(world.Repo.Commits[0]);

        var first = world.StartAgent("first");
        Assert.True(await Eventually.TrueAsync(() => world.Repo.Started == 1, Long), "the first agent never started the suite\n" + world.Diagnostics());
        first.KillHard();
        // Running until its lease runs out, then back in the queue (no sweep runs in tests: the next claim finds the lease expired).
        Assert.True((await world.JobAsync(job)).State is "Running" or "Queued");

        world.Repo.Unhold(); // the second attempt runs straight through
        var second = world.StartAgent("second", once: true);
        Assert.True(await second.WaitForExitAsync(Long), "the second agent did not finish the job\n" + world.Diagnostics());
        Assert.True(second.ExitCode == 0, $"the second agent exited with {second.ExitCode}\n{world.Diagnostics()}");

        var row = await world.JobAsync(job);
        output.WriteLine($"job {job}: {row.State} after {row.Attempts} attempts\n{row.Log}");
        Assert.Equal("Succeeded", row.State);
        Assert.Equal(2, row.Attempts);
        Assert.Contains("lease expired", row.Log);
        var run = Assert.Single(await world.RunsOfJobAsync(job));
        Assert.Equal(AgentWorld.RunKey(job), run.Key);
        Assert.Equal(LocalRepo.ResultsPerRun, run.Results);
    }

    [Fact]
    public async Task The_service_stopped_while_an_agent_holds_results_gets_them_from_the_spool_once()
    {
        await using var world = await AgentWorld.StartAsync("spool-keep");
        world.Repo.Hold();
        var job = await world.EnqueueAsync(world.Repo.Commits[0]);
        var agent = world.StartAgent("keeper", once: true);
        Assert.True(await Eventually.TrueAsync(() => world.Repo.Started == 1, Long), "the suite never started\n" + world.Diagnostics());

        await world.Service.KillHardAsync();
        world.Repo.Release();
        Assert.True(await Eventually.TrueAsync(() => agent.Saw("kept in the spool"), Long), "the agent did not spool its results\n" + world.Diagnostics());
        var entry = Path.Combine(world.WorkDir("keeper"), "spool", AgentWorld.RunKey(job));
        Assert.True(File.Exists(Path.Combine(entry, "entry.json")), $"no spool entry at {entry}");
        Assert.Empty(await world.RunsOfJobAsync(job));

        await world.Service.StartAsync();
        Assert.True(await agent.WaitForExitAsync(Long), "the agent did not deliver and complete after the service came back\n" + world.Diagnostics());
        Assert.True(agent.ExitCode == 0, $"the agent exited with {agent.ExitCode}\n{world.Diagnostics()}");
        Assert.True(agent.Saw("posted spooled"), "the agent exited without posting its spooled results\n" + world.Diagnostics());
        Assert.False(Directory.Exists(entry), "the delivered entry is still in the spool");

        var run = Assert.Single(await world.RunsOfJobAsync(job));
        Assert.Equal(AgentWorld.RunKey(job), run.Key);
        Assert.Equal(LocalRepo.ResultsPerRun, run.Results);
        Assert.Equal("Succeeded", (await world.JobAsync(job)).State);
    }

    [Fact]
    public async Task A_spool_that_cannot_be_written_fails_the_job_loudly_and_drops_nothing_silently()
    {
        await using var world = await AgentWorld.StartAsync("spool-broken");
        world.Repo.Hold();
        var job = await world.EnqueueAsync(world.Repo.Commits[0]);
        var agent = world.StartAgent("broken", once: true);
        Assert.True(await Eventually.TrueAsync(() => world.Repo.Started == 1, Long), "the suite never started\n" + world.Diagnostics());

        // The agent created its spool at start. Root ignores permissions, so as root the folder becomes a plain file
        // (as good as a full or read-only disk to the agent); otherwise it is made read-only.
        var spool = Path.Combine(world.WorkDir("broken"), "spool");
        if (TestPaths.IsRoot)
        {
            Directory.Delete(spool, recursive: true);
            await File.WriteAllTextAsync(spool, "not a folder");
        }
        else if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(spool, UnixFileMode.UserRead | UnixFileMode.UserExecute | UnixFileMode.GroupRead | UnixFileMode.GroupExecute
                                        | UnixFileMode.OtherRead | UnixFileMode.OtherExecute);
        }
        world.Repo.Release();

        Assert.True(await agent.WaitForExitAsync(Long), "the agent did not finish\n" + world.Diagnostics());
        Assert.True(agent.ExitCode == 1, $"--once exits 1 for a failed job\n{world.Diagnostics()}");
        var row = await world.JobAsync(job);
        output.WriteLine($"job {job}: {row.State}: {row.Reason}");
        Assert.Equal("Failed", row.State);
        Assert.Contains("results not kept", row.Reason);
        Assert.Contains("spool", row.Reason);
        Assert.Contains(agent.Lines, l => l.Contains("error:", StringComparison.Ordinal) && l.Contains("spool", StringComparison.Ordinal));
        Assert.Empty(await world.RunsOfJobAsync(job));
    }

    [Fact]
    public async Task The_same_results_posted_twice_make_one_run()
    {
        await using var world = await AgentWorld.StartAsync("repeat");
        var file = world.Scratch.Path("results.json");
        await File.WriteAllBytesAsync(file, Uploads.GenericJson(50, 20, 7));
        var commit = Uploads.Commit("repeat");

        // 1. The client CLI run twice (a CI step re-run after a lost answer): the same content makes the same key.
        var ingest = await world.Db.CreateTokenAsync("ci", "ingest");
        var runIds = new List<string>();
        for (var i = 0; i < 2; i++)
        {
            await using var submit = ChildProcess.Start("dotnet",
                [TestPaths.AgentDll, "submit", file, "--server", world.Service.BaseAddress.ToString(), "--project", AgentWorld.Project,
                 "--commit", commit, "--profile", AgentProcess.Profile, "--branch", "main"],
                world.Scratch.Root, new Dictionary<string, string?> { ["PERF_TOKEN"] = ingest });
            Assert.True(await submit.WaitForExitAsync(Long));
            Assert.True(submit.ExitCode == 0, submit.Output);
            runIds.Add(submit.Lines.Last(l => l.All(char.IsAsciiDigit) && l.Length > 0));
            if (i == 1) Assert.True(submit.Saw("duplicate"), submit.Output);
        }
        Assert.Equal(runIds[0], runIds[1]);
        Assert.Single(await world.Db.StoredRunsAsync(AgentWorld.Project));

        // 2. An agent that crashed after its post went through but before it cleared its spool posts the entry again
        //    when it starts: the service answers with the first run.
        const string key = "job-999-held-head-1";
        var run = Uploads.Metadata(AgentWorld.Project, Uploads.Commit("spooled")) with { Agent = "replayer" };
        var content = Uploads.GenericJson(40, 20, 9);
        using (var http = world.Service.Client(ingest))
            Assert.True((await Uploads.PostAsync(http, run, key, ("results.json", content))).Acknowledged);
        var entry = Path.Combine(world.WorkDir("replayer"), "spool", key);
        Directory.CreateDirectory(Path.Combine(entry, "files"));
        await File.WriteAllBytesAsync(Path.Combine(entry, "files", "results.json"), content);
        await File.WriteAllTextAsync(Path.Combine(entry, "entry.json"),
            JsonSerializer.Serialize(new { key, run, spooledAt = DateTimeOffset.UtcNow }, Uploads.Json));

        var agent = world.StartAgent("replayer");
        Assert.True(await Eventually.TrueAsync(() => agent.Saw("posted spooled"), Long), "the agent did not drain its spool\n" + world.Diagnostics());
        Assert.True(agent.Saw("(duplicate)"), "the agent never saw its entry answered as a duplicate\n" + world.Diagnostics());
        Assert.False(Directory.Exists(entry));
        var stored = await world.Db.StoredRunsAsync(AgentWorld.Project);
        Assert.Equal(2, stored.Count);
        Assert.Single(stored, r => r.Key == key);
    }

    [Fact]
    public async Task Two_agents_with_one_token_share_the_jobs_and_no_job_runs_twice()
    {
        const int jobs = 6;
        await using var world = await AgentWorld.StartAsync("shared-token", commits: jobs);
        world.Repo.Slow();
        var a = world.StartAgent("twin-a");
        var b = world.StartAgent("twin-b");
        Assert.True(await Eventually.TrueAsync(() => a.Saw("waiting for a job") && b.Saw("waiting for a job"), Long),
            "both agents should register with the shared token\n" + world.Diagnostics());

        var ids = new List<long>();
        foreach (var commit in world.Repo.Commits) ids.Add(await world.EnqueueAsync(commit));
        foreach (var id in ids)
        {
            var row = await world.WaitForJobAsync(id, j => j.State is "Succeeded" or "Failed", Long);
            Assert.True(row.State == "Succeeded", $"job {id}: {row.State} {row.Reason}\n{world.Diagnostics()}");
            Assert.Equal(1, row.Attempts);
            var run = Assert.Single(await world.RunsOfJobAsync(id));
            Assert.Equal(AgentWorld.RunKey(id), run.Key);
        }
        Assert.Equal(jobs, world.Repo.Started);
        var workers = await world.Db.QueryAsync("SELECT DISTINCT a.name FROM jobs j JOIN agents a ON a.id = j.agent_id", r => r.GetString(0));
        output.WriteLine($"jobs done by: {string.Join(", ", workers)}");
        Assert.Equal(["twin-a", "twin-b"], workers.Order());
        Assert.Equal(jobs, (await world.Db.StoredRunsAsync(AgentWorld.Project)).Count);
    }

    [Fact]
    public async Task Leases_follow_the_database_clock_not_the_agents()
    {
        // The agent protocol carries no client time for leases: claim and heartbeat set lease_expires_at from the
        // database's now(). An agent whose clock is wrong can only put wrong times into a run's started/finished
        // fields, which are stored as given and never used for leases or ordering of arrival.
        await using var world = await AgentWorld.StartAsync("clock", new Dictionary<string, string?> { ["Jobs__LeaseSeconds"] = "30" });
        using var http = world.Service.Client(world.AgentToken);
        var machine = new MachineInfo("Skewed CPU", 2, 2, 1L << 30, "Linux", "6.1", new Dictionary<string, string>());
        var registered = await (await http.PostAsJsonAsync("api/v1/agents/register", new RegisterAgentRequest("skewed", AgentProcess.Profile, machine)))
            .Content.ReadFromJsonAsync<RegisterAgentResponse>(Uploads.Json);
        var job = await world.EnqueueAsync(world.Repo.Commits[0]);

        var claim = await http.PostAsync($"api/v1/agents/{registered!.AgentId}/claim?waitSeconds=0", null);
        var assignment = await claim.Content.ReadFromJsonAsync<JobAssignment>(Uploads.Json);
        Assert.Equal(job, assignment!.JobId);
        Assert.Equal(30, assignment.LeaseSeconds);
        // The claim's one statement sets started_at = now() and the lease to now() + 30 s: exactly 30 s apart.
        var claimed = await LeaseAsync(world, job);
        Assert.Equal(30.0, claimed.LeaseMinusStart, 3);
        Assert.InRange(claimed.Left, 0.001, 30);

        // The lease follows PostgreSQL's now(), which no fake clock in the test can move: wait until the database's own
        // clock is 1.5 s past the claim.
        var sinceClaim = await Eventually.WaitAsync(() => SecondsSinceClaimAsync(world, job), s => s >= 1.5, TimeSpan.FromSeconds(30));
        Assert.True(sinceClaim >= 1.5, $"the database clock stood still: {sinceClaim} s since the claim");
        var beat = await (await http.PostAsJsonAsync($"api/v1/jobs/{job}/heartbeat", new HeartbeatRequest(registered.AgentId, "skewed", ["tick"])))
            .Content.ReadFromJsonAsync<HeartbeatResponse>(Uploads.Json);
        var extended = await LeaseAsync(world, job);
        Assert.True(extended.Lease - claimed.Lease >= TimeSpan.FromSeconds(1.4), $"the heartbeat should move the lease on by the time that passed: {claimed.Lease:O} → {extended.Lease:O}");
        Assert.InRange(extended.Left, 0.001, 30);
        Assert.Equal(extended.Lease, beat!.LeaseExpiresAt.ToUniversalTime(), TimeSpan.FromMilliseconds(1));

        // A run from an agent whose clock is three days behind: its times are kept as sent, its arrival is the server's.
        var skewed = DateTimeOffset.UtcNow.AddDays(-3);
        var meta = Uploads.Metadata(AgentWorld.Project, Uploads.Commit("skewed")) with { StartedAt = skewed, FinishedAt = skewed.AddMinutes(1) };
        var posted = await Uploads.PostAsync(http, meta, "skewed-clock", ("results.json", Uploads.GenericJson(5, 20, 3)));
        Assert.True(posted.Acknowledged, posted.ToString());
        var times = (await world.Db.QueryAsync("SELECT started_at, created_at, now() FROM runs WHERE id = $1",
            r => (Started: r.GetFieldValue<DateTimeOffset>(0), Created: r.GetFieldValue<DateTimeOffset>(1), Now: r.GetFieldValue<DateTimeOffset>(2)),
            posted.Run!.RunId)).Single();
        Assert.Equal(skewed, times.Started, TimeSpan.FromMilliseconds(1));
        Assert.Equal(times.Now, times.Created, TimeSpan.FromSeconds(30));
    }

    private static async Task<double> SecondsSinceClaimAsync(AgentWorld world, long job) =>
        (await world.Db.QueryAsync("SELECT extract(epoch FROM now() - started_at)::float8 FROM jobs WHERE id = $1", r => r.GetDouble(0), job)).Single();

    private static async Task<(DateTimeOffset Lease, double LeaseMinusStart, double Left)> LeaseAsync(AgentWorld world, long job) =>
        (await world.Db.QueryAsync("""
            SELECT lease_expires_at, extract(epoch FROM lease_expires_at - started_at)::float8, extract(epoch FROM lease_expires_at - now())::float8
            FROM jobs WHERE id = $1
            """, r => (r.GetFieldValue<DateTimeOffset>(0), r.GetDouble(1), r.GetDouble(2)), job)).Single();
}
