using PerfService.Agents.Machine;
using PerfService.Agents.Tests.Support;
using PerfService.Agents.Worker;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Tests.Worker;

/// <summary>The whole agent (driver, state machine, git, runner, spool, client) against a fake service, a local
/// repository and a fake `go`.</summary>
public sealed class AgentEndToEndTests : IDisposable
{
    private static readonly string _gobench = TestPaths.Fixture("gobench", "goperf-suffixarray-benchmem-count10.txt");
    private readonly TempDir _dir = new();
    private readonly FakeAgentApi _api = new();
    private readonly FakeTools _tools;
    private readonly string _repo;
    private readonly StringWriter _console = new();

    private static readonly AgentIdentity _identity = new("bench-1", "ryzen-9950x",
        new MachineInfo("Intel Xeon", 2, 2, 1L << 33, "Debian 13", "6.12", new Dictionary<string, string> { ["go"] = "go1.24" }),
        "x64", "simulated: this host is Intel Xeon (2C/2T x64), not AMD Ryzen 9 9950X (16C/32T x64)");

    public AgentEndToEndTests()
    {
        _tools = new FakeTools(_dir.Combine("bin"));
        _tools.Add("go", $"cat side.txt >&2\ncat '{_gobench}'\n");
        _repo = Git.Init(_dir.Combine("origin"));
    }

    private const string PerfJson = """
        { "suites": [ { "name": "suffix", "harness": "gobench", "folder": "go",
                        "targets": [ { "name": "fast enough", "benchmark": "BenchmarkNew*", "op": "<", "value": 5, "unit": "ms" } ] } ] }
        """;

    private string Commit(string side, string perfJson = PerfJson) =>
        Git.Commit(_repo, side, ("perf.json", perfJson), ("go/side.txt", side), ("go/go.mod", "module x"));

    private static JobAssignment Job(string head, string? baseCommit = null, int rounds = 1) =>
        new(42, 1, "demo", "", head, baseCommit, "feature", baseCommit is null ? null : 5, [], "ryzen-9950x", rounds, 60, false);

    private Task<int> RunAgentAsync(CancellationToken ct = default, bool repeatDisturbed = true)
    {
        var options = new AgentOptions
        {
            Server = _api.Url, Token = "t", Profile = "ryzen-9950x", WorkDir = _dir.Combine("work"), Name = "bench-1", Once = true,
            WaitSeconds = 1, HeartbeatInterval = TimeSpan.FromMilliseconds(100), HarnessEnvironment = _tools.Environment,
            RepeatDisturbed = repeatDisturbed,
        };
        var console = new AgentConsole(TextWriter.Synchronized(_console), TimeProvider.System);
        var http = AgentFactory.CreateHttpClient(options);
        return AgentFactory.Create(options, _identity, console, TimeProvider.System, http).RunAsync(ct);
    }

    [Fact]
    public async Task Pull_request_job_runs_base_and_head_interleaved_and_posts_each_round()
    {
        var baseCommit = Commit("base");
        var head = Commit("head");
        _api.Enqueue(Job(head, baseCommit, rounds: 2) with { RepositoryUrl = _repo });

        Assert.Equal(0, await RunAgentAsync());

        Assert.Equal(["job-42-suffix-base-1", "job-42-suffix-head-1", "job-42-suffix-head-2", "job-42-suffix-base-2"],
            _api.Posts.Select(p => p.Header("Idempotency-Key")));
        var metadata = _api.Posts.Select(p => System.Text.Json.JsonSerializer.Deserialize<RunMetadata>(p.Parts()[0].Text, System.Text.Json.JsonSerializerOptions.Web)!).ToList();
        Assert.Equal([baseCommit, head, head, baseCommit], metadata.Select(m => m.Commit)); // ABBA
        Assert.All(metadata, m =>
        {
            Assert.True(m.ProfileMismatch);
            Assert.Equal(("demo", 5, baseCommit, "gobench", 42L, "bench-1"), (m.Project, m.PullRequest!.Value, m.BaseCommit, m.Format, m.JobId!.Value, m.Agent));
            Assert.Equal("Intel Xeon", m.Environment!["cpu"]);
            Assert.True(m.StartedAt <= m.FinishedAt);
            var target = Assert.Single(m.Targets!);
            Assert.Equal(("fast enough", "<", 5.0, "ms"), (target.Name, target.Op, target.Value, target.Unit));
        });
        Assert.Equal(["gobench.txt"], _api.Posts[0].Parts().Skip(1).Select(p => p.FileName));

        var complete = Assert.Single(_api.Completes).Json<CompleteJobRequest>();
        Assert.True(complete.Succeeded);
        // Each side ran in its own checkout: the harness printed the side's marker file.
        var log = string.Join('\n', _api.Heartbeats.SelectMany(h => h.Json<HeartbeatRequest>().Log ?? []).Concat(complete.Log ?? []));
        Assert.Contains("base", log);
        Assert.Contains("suite 1/1 suffix (head, round 2/2)", log);
        Assert.DoesNotContain(Directory.GetDirectories(_dir.Combine("work", "spool")), d => Path.GetFileName(d).StartsWith("job-", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Log_lines_that_no_heartbeat_delivered_reach_the_service_with_the_completion()
    {
        // The service cannot take heartbeats (a restart, a proxy): every batch of lines is refused and kept.
        _api.Heartbeat = _ => FakeResponse.Problem(503, "Service Unavailable", "restarting");
        _tools.Add("go", $"sleep 0.5\ncat side.txt >&2\ncat '{_gobench}'\n");
        _api.Enqueue(Job(Commit("head-marker")) with { RepositoryUrl = _repo });

        Assert.Equal(0, await RunAgentAsync());

        Assert.NotEmpty(_api.Heartbeats);
        Assert.All(_api.Heartbeats, h => Assert.NotNull(h.Json<HeartbeatRequest>().Log));
        var complete = Assert.Single(_api.Completes).Json<CompleteJobRequest>();
        Assert.True(complete.Succeeded, complete.Error);
        // The first lines (the clone) went out with refused heartbeats only; the completion carries them, once.
        var log = complete.Log ?? [];
        Assert.Single(log, l => l.StartsWith("cloning ", StringComparison.Ordinal));
        Assert.Contains("head-marker", log);
    }

    [Fact]
    public async Task Failing_suite_fails_the_job_with_the_harness_error()
    {
        _tools.Add("go", "echo 'go/side.go:3:1: syntax error: unexpected }' >&2\nexit 1\n");
        _api.Enqueue(Job(Commit("head")) with { RepositoryUrl = _repo });

        Assert.Equal(1, await RunAgentAsync());

        Assert.Empty(_api.Posts);
        var complete = Assert.Single(_api.Completes).Json<CompleteJobRequest>();
        Assert.False(complete.Succeeded);
        Assert.Contains("exited with code 1", complete.Error);
        Assert.Contains("syntax error: unexpected }", complete.Error);
    }

    [Fact]
    public async Task Cancel_from_a_heartbeat_kills_the_harness_and_completes_as_cancelled()
    {
        var pidFile = _dir.Combine("go.pid");
        _tools.Add("go", $"echo $$ > {pidFile}\nsleep 300\n");
        // Cancel once the harness is running (not while git is still fetching).
        _api.Heartbeat = _ => FakeResponse.Ok(new HeartbeatResponse(File.Exists(pidFile), DateTimeOffset.UtcNow, "superseded by a newer push"));
        _api.Enqueue(Job(Commit("head")) with { RepositoryUrl = _repo });

        var clock = System.Diagnostics.Stopwatch.StartNew();
        Assert.Equal(1, await RunAgentAsync());
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(60));

        var complete = Assert.Single(_api.Completes).Json<CompleteJobRequest>();
        Assert.False(complete.Succeeded);
        Assert.Equal("cancelled: superseded by a newer push", complete.Error);
        Assert.False(Directory.Exists($"/proc/{File.ReadAllText(pidFile).Trim()}/fd"), "the harness was killed");
    }

    [Fact]
    public async Task Lost_lease_abandons_the_job_without_completing()
    {
        _tools.Add("go", "sleep 300\n");
        _api.Heartbeat = _ => FakeResponse.Problem(409, "Conflict", "job 42 is leased to agent 9");
        _api.Enqueue(Job(Commit("head")) with { RepositoryUrl = _repo });

        Assert.Equal(1, await RunAgentAsync());
        Assert.Empty(_api.Completes);
        Assert.Contains("abandoned", _console.ToString());
    }

    [Fact]
    public async Task Results_spooled_while_the_service_refuses_uploads_are_posted_by_the_next_start()
    {
        var down = true;
        _api.Runs = _ => down ? FakeResponse.Problem(503, "Service Unavailable", "restarting") : null;
        _api.Enqueue(Job(Commit("head")) with { RepositoryUrl = _repo });

        Assert.Equal(0, await RunAgentAsync());
        Assert.True(Assert.Single(_api.Completes).Json<CompleteJobRequest>().Succeeded);
        var spooled = Directory.GetDirectories(_dir.Combine("work", "spool")).Select(Path.GetFileName).ToList();
        Assert.Contains("job-42-suffix-head-1", spooled);

        // The service is back; a restarted agent drains the spool before it claims anything.
        down = false;
        var entry = _dir.Combine("work", "spool", "job-42-suffix-head-1");
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        var agent = RunAgentAsync(stop.Token);
        Assert.True(await Eventually.TrueAsync(() => !Directory.Exists(entry), TimeSpan.FromSeconds(60), 50), "the restarted agent did not drain its spool");
        await stop.CancelAsync();
        Assert.Equal(0, await agent);

        var requests = _api.Service.Requests.Select(r => r.Path).ToList();
        var restart = requests.LastIndexOf("/api/v1/agents/register");
        var claim = requests.FindIndex(restart, p => p.EndsWith("/claim", StringComparison.Ordinal));
        Assert.True(claim == -1 || requests.FindIndex(restart, p => p == "/api/v1/runs") < claim, "spool drained before claiming");

        var last = _api.Posts[^1];
        Assert.Equal("job-42-suffix-head-1", last.Header("Idempotency-Key"));
    }

    [Fact]
    public async Task An_untrusted_job_builds_in_a_fresh_folder_with_caches_of_its_own_that_is_removed_afterwards()
    {
        _tools.Add("go", $"echo \"where $(pwd) home=$HOME gocache=$GOCACHE target=$CARGO_TARGET_DIR nuget=$NUGET_PACKAGES\"\n" +
            "mkdir -p \"$GOCACHE\" && echo poisoned > \"$GOCACHE/entry\"\n" + $"cat '{_gobench}'\n");
        _api.Enqueue(Job(Commit("outsider")) with { RepositoryUrl = _repo, Untrusted = true });

        // One harness run to read the folders from, however busy this machine is.
        Assert.Equal(0, await RunAgentAsync(repeatDisturbed: false));

        var complete = Assert.Single(_api.Completes).Json<CompleteJobRequest>();
        Assert.True(complete.Succeeded, complete.Error);
        var log = string.Join('\n', _api.Heartbeats.SelectMany(h => h.Json<HeartbeatRequest>().Log ?? []).Concat(complete.Log ?? []));
        var where = log.Split('\n').Single(l => l.StartsWith("where ", StringComparison.Ordinal));
        var fresh = System.Text.RegularExpressions.Regex.Match(where, "where (\\S+/untrusted/job-42-[0-9a-f]+)/head/go ").Groups[1].Value;
        Assert.StartsWith(_dir.Combine("work", "untrusted"), fresh);
        foreach (var variable in new[] { "home", "gocache", "target", "nuget" })
            Assert.Matches($"{variable}={System.Text.RegularExpressions.Regex.Escape(fresh)}/", where);
        // Gone afterwards, with its worktrees, and nothing was written where trusted jobs build.
        Assert.False(Directory.Exists(fresh));
        Assert.Empty(Directory.GetFileSystemEntries(_dir.Combine("work", "untrusted")));
        Assert.False(Directory.Exists(_dir.Combine("work", "work")));
        Assert.DoesNotContain("untrusted", Git.Run(_dir.Combine("work", "repos", PerfService.Agents.Jobs.GitWorkspace.Hash(_repo)), "worktree", "list"));

        // The next, trusted job builds in the shared worktree with the shared home, untouched by the outsider.
        var heartbeatsBefore = _api.Heartbeats.Count;
        _api.Enqueue(Job(Commit("main")) with { JobId = 43, RepositoryUrl = _repo });
        Assert.Equal(0, await RunAgentAsync());
        var trusted = _api.Completes[^1].Json<CompleteJobRequest>();
        // Only the trusted job's own log: its heartbeats (after the first job's) and then its completion.
        var trustedWhere = _api.Heartbeats.Skip(heartbeatsBefore).SelectMany(h => h.Json<HeartbeatRequest>().Log ?? []).Concat(trusted.Log ?? [])
            .Last(l => l.StartsWith("where ", StringComparison.Ordinal));
        Assert.Contains($"where {_dir.Combine("work", "work", PerfService.Agents.Jobs.GitWorkspace.Hash(_repo), "head", "go")} home={_dir.Combine("work", "home")} ", trustedWhere);
    }

    [Theory]
    [InlineData("--upload-pack=touch {marker}")]
    [InlineData("deadbeef; touch {marker}")]
    public async Task A_job_whose_commit_is_not_a_sha_fails_with_the_reason_before_any_git_call(string commit)
    {
        var marker = _dir.Combine("injected");
        _api.Enqueue(Job(commit.Replace("{marker}", marker, StringComparison.Ordinal)) with { RepositoryUrl = _repo });

        Assert.Equal(1, await RunAgentAsync());

        var complete = Assert.Single(_api.Completes).Json<CompleteJobRequest>();
        Assert.False(complete.Succeeded);
        Assert.Contains("is not a commit id (7 to 40 or 64 hexadecimal digits)", complete.Error);
        Assert.False(File.Exists(marker));
        Assert.False(Directory.Exists(_dir.Combine("work", "repos")));
    }

    [Theory]
    [InlineData(true, 2)]
    [InlineData(false, 1)]
    public async Task A_round_disturbed_by_busy_loops_beside_the_agent_is_repeated_once_and_posted_marked(bool repeat, int attempts)
    {
        if (!File.Exists("/proc/stat")) return; // the agent measures disturbance only where /proc exists
        var runs = _dir.Combine("runs.txt");
        _tools.Add("go", $"echo run >> '{runs}'\nsleep 1\ncat '{_gobench}'\n");
        _api.Enqueue(Job(Commit("head")) with { RepositoryUrl = _repo });

        int exit;
        using (BusyLoops.Start(Math.Min(Environment.ProcessorCount, 16)))
            exit = await RunAgentAsync(repeatDisturbed: repeat);

        Assert.Equal(0, exit);
        // One round, head only: a budget of one repeat; the loops were still running, so the repeat was disturbed too.
        Assert.Equal(attempts, File.ReadAllLines(runs).Length);
        var post = Assert.Single(_api.Posts);
        var d = System.Text.Json.JsonSerializer.Deserialize<RunMetadata>(post.Parts()[0].Text, System.Text.Json.JsonSerializerOptions.Web)!.Disturbance!;
        Assert.True(d.Disturbed);
        Assert.Equal(attempts, d.Attempts);
        Assert.Equal(Environment.ProcessorCount, d.SuiteCores);
        // The loops share the cores with this test host, whose other tests count as the agent's own process tree: well
        // above the rule's 10%, not necessarily all of it.
        Assert.True(d.OtherCpuShare >= 0.25, $"the loops should take a large share of the suite's cores, measured {d.OtherCpuShare:P0}");
        Assert.True(d.Seconds >= 1);
        var complete = Assert.Single(_api.Completes).Json<CompleteJobRequest>();
        Assert.True(complete.Succeeded, complete.Error);
        var log = string.Join('\n', _api.Heartbeats.SelectMany(h => h.Json<HeartbeatRequest>().Log ?? []).Concat(complete.Log ?? []));
        Assert.Contains("; disturbed: ", log); // by the loops, or by steal when the VM host is busy too
        if (repeat)
        {
            Assert.Contains("repeating the disturbed round (0 repeat(s) left in this job)", log);
            Assert.Contains("was disturbed again when repeated: the disturbance is lasting", log);
        }
    }

    public void Dispose()
    {
        _api.Dispose();
        _dir.Dispose();
    }
}
