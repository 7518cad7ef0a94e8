using System.Text.Json;
using PerfService.Agents.Isolation;
using PerfService.Agents.Machine;
using PerfService.Agents.Processes;
using PerfService.Agents.Profiling;
using PerfService.Agents.Suites;
using PerfService.Agents.Tests.Isolation;
using PerfService.Agents.Tests.Support;
using PerfService.Agents.Worker;
using PerfService.Core.Contracts;
using PerfService.Core.Profiles;
using Xunit.Abstractions;

namespace PerfService.Agents.Tests.Profiling;

/// <summary>Profiling jobs through the whole agent against the fake service, on this repository's real suites
/// (benches/) with the real toolchains: each posted profile must parse and hold the benchmark's own code.</summary>
public sealed class ProfilingEndToEndTests : IDisposable
{
    private readonly TempDir _dir = new();
    private readonly FakeAgentApi _api = new();
    private readonly string _repo;

    private static readonly AgentIdentity _identity = new("bench-1", "ci",
        new MachineInfo("Intel Xeon", 2, 2, 1L << 33, "Debian 13", "6.12", new Dictionary<string, string>()), "x64", null);

    private readonly ITestOutputHelper _output;

    public ProfilingEndToEndTests(ITestOutputHelper output)
    {
        _output = output;
        _repo = Git.Init(_dir.Combine("origin"));
    }

    /// <summary>One suite of benches/ in a repository of its own, as the demo lays it out (benches/ is the root).</summary>
    private string Commit(string message, string perfJson, params string[] folders)
    {
        var benches = Path.Combine(TestPaths.RepoRoot, "benches");
        var files = folders.SelectMany(folder => Directory.EnumerateFiles(Path.Combine(benches, folder), "*", SearchOption.AllDirectories))
            .Select(f => Path.GetRelativePath(benches, f))
            .Where(f => !f.Split('/').Any(part => part is "bin" or "obj" or "target" or "BenchmarkDotNet.Artifacts"))
            .Select(f => (f, File.ReadAllText(Path.Combine(benches, f))))
            .Append(("perf.json", perfJson));
        return Git.Commit(_repo, message, [.. files]);
    }

    private async Task<(CompleteJobRequest Complete, string Log)> RunAsync(JobAssignment job, IReadOnlyDictionary<string, string?>? environment = null,
        HarnessIsolation? isolation = null, TimeSpan? uploadRetry = null, SuiteRunners? profilers = null, string? workDir = null)
    {
        _api.Enqueue(job with { RepositoryUrl = _repo });
        var options = new AgentOptions
        {
            Server = _api.Url, Token = "t", Profile = "ci", WorkDir = workDir ?? _dir.Combine("work"), Name = "bench-1", Once = true,
            WaitSeconds = 1, HeartbeatInterval = TimeSpan.FromMilliseconds(500), HarnessEnvironment = environment ?? new Dictionary<string, string?>(),
            Isolation = isolation ?? HarnessIsolation.None, UploadRetry = uploadRetry ?? TimeSpan.FromSeconds(30),
        };
        var console = new AgentConsole(TextWriter.Null, TimeProvider.System);
        using var http = AgentFactory.CreateHttpClient(options);
        await AgentFactory.Create(options, _identity, console, TimeProvider.System, http, profilers).RunAsync(CancellationToken.None);
        // The last report is the one the service took (an earlier one may have met a service that was away).
        var complete = _api.Completes[^1].Json<CompleteJobRequest>();
        var log = string.Join('\n', _api.Heartbeats.SelectMany(h => h.Json<HeartbeatRequest>().Log ?? []).Concat(complete.Log ?? []));
        return (complete, log);
    }

    private static JobAssignment Job(string head, string? baseCommit, params ProfileTarget[] targets) =>
        new(42, 1, "demo", "", head, baseCommit, "feature", baseCommit is null ? null : 5, [], "ci", 1, 600, Quick: true,
            Profiling: new ProfilingRequest(targets));

    /// <summary>Each posted profile: its metadata, and its file read as the service reads it.</summary>
    private List<(ProfileUploadMetadata Metadata, FoldedStacks Stacks, int Bytes, string? Key)> Posted() =>
        _api.ProfilePosts.Select(p =>
        {
            var parts = p.Parts();
            var metadata = JsonSerializer.Deserialize<ProfileUploadMetadata>(parts.Single(x => x.Name == "profile").Text, JsonSerializerOptions.Web)!;
            var file = parts.Single(x => x.Name == "file").Content;
            Assert.True(ProfileFormats.TryParse(metadata.Format, out var format));
            // The figures docs/measurements reports: size per benchmark per side as posted, and gzipped.
            _output.WriteLine($"{metadata.Benchmark} {metadata.Role}: {metadata.Format}, {file.Length} bytes, {Gzipped(file)} gzipped");
            return (metadata, ProfileReader.Read(new MemoryStream(file), format, ProfileLimits.Default), file.Length, p.Header("Idempotency-Key"));
        }).ToList();

    private static long Gzipped(byte[] file)
    {
        using var buffer = new MemoryStream();
        using (var gzip = new System.IO.Compression.GZipStream(buffer, System.IO.Compression.CompressionLevel.SmallestSize, leaveOpen: true)) gzip.Write(file);
        return buffer.Length;
    }

    [Fact]
    public async Task Go_benchmark_is_profiled_on_base_then_head_and_a_target_that_cannot_be_profiled_fails_alone()
    {
        const string perfJson = """{ "suites": [ { "name": "eventstore", "harness": "gobench", "folder": "go", "quickArgs": ["-benchtime=300ms"] } ] }""";
        var baseCommit = Commit("base", perfJson, "go");
        var head = Commit("head", perfJson.Replace("\"folder\"", "\"env\": { \"PERF_SLOWDOWN\": \"BenchmarkRead/simple=50\" }, \"folder\""), "go");

        var (complete, log) = await RunAsync(Job(head, baseCommit,
            new ProfileTarget("eventstore", "perfbench.BenchmarkRead/simple"), new ProfileTarget("nosuch", "perfbench.BenchmarkX")));

        Assert.True(complete.Succeeded, complete.Error);
        Assert.Contains("error: profile of perfbench.BenchmarkX (suite nosuch) failed", log);
        Assert.Empty(_api.Posts); // a profiled run is never a result
        var posted = Posted();
        Assert.Equal(["job-42-profile-eventstore-perfbench.BenchmarkRead%2Fsimple-base-1", "job-42-profile-eventstore-perfbench.BenchmarkRead%2Fsimple-head-1"],
            posted.Select(p => p.Key));
        Assert.All(posted, p =>
        {
            Assert.Equal((42L, 7L, "eventstore", "perfbench.BenchmarkRead/simple", "pprof", 1), (p.Metadata.JobId, p.Metadata.AgentId, p.Metadata.Suite, p.Metadata.Benchmark, p.Metadata.Format, p.Metadata.Round));
            Assert.Contains(p.Stacks.Stacks.Keys, s => s.Contains("perfbench.(*Store).Read", StringComparison.Ordinal));
            // -bench selected exactly the one benchmark: none of its siblings ran.
            Assert.DoesNotContain(p.Stacks.Stacks.Keys, s => s.Contains("BenchmarkAppend", StringComparison.Ordinal));
        });
        Assert.Equal(["base", "head"], posted.Select(p => p.Metadata.Role));
        // The planted slowdown is CPU work in a frame of its own: head against base, it is the frame that grew most.
        var diff = DifferentialProfile.Build(posted[0].Stacks, posted[1].Stacks);
        Assert.Equal("perfbench.slowdownWork", diff.Grown[0].Frame);
        Assert.DoesNotContain(posted[0].Stacks.Stacks.Keys, s => s.Contains("slowdownWork", StringComparison.Ordinal));
        Assert.Matches(@"perfbench.BenchmarkRead/simple \(head, round 1\): pprof profile, \d+ samples, \d+ bytes", log);
    }

    // A stranger's pull request is profiled as its suites run: in the sandbox, as another user. Go's profiler needs no
    // privilege (a timer signal), so the profile must come back whole from inside both.
    [SandboxFact]
    public Task Go_benchmark_is_profiled_inside_the_sandbox() => ProfileIsolatedAsync(new HarnessIsolation { Sandbox = true });

    [RunAsSandboxFact, System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public async Task Go_benchmark_is_profiled_as_another_user_inside_the_sandbox()
    {
        using var user = new ThrowawayUser();
        ThrowawayUser.LetIn(_dir.Path);
        await ProfileIsolatedAsync(new HarnessIsolation { Sandbox = true, RunAs = user.Resolve() });
    }

    private async Task ProfileIsolatedAsync(HarnessIsolation isolation)
    {
        const string perfJson = """{ "suites": [ { "name": "eventstore", "harness": "gobench", "folder": "go", "quickArgs": ["-benchtime=200ms"] } ] }""";
        var baseCommit = Commit("base", perfJson, "go");
        var head = Commit("head", perfJson.Replace("\"folder\"", "\"env\": { \"PERF_SLOWDOWN\": \"BenchmarkRead/simple=50\" }, \"folder\""), "go");

        var (complete, log) = await RunAsync(Job(head, baseCommit, new ProfileTarget("eventstore", "perfbench.BenchmarkRead/simple")), isolation: isolation);

        Assert.True(complete.Succeeded, complete.Error + "\n" + log);
        var posted = Posted();
        Assert.Equal(["base", "head"], posted.Select(p => p.Metadata.Role));
        Assert.All(posted, p => Assert.Contains(p.Stacks.Stacks.Keys, s => s.Contains("perfbench.(*Store).Read", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task A_profile_the_service_could_not_take_during_the_job_is_posted_from_the_spool_before_the_job_completes()
    {
        const string perfJson = """{ "suites": [ { "name": "eventstore", "harness": "gobench", "folder": "go", "quickArgs": ["-benchtime=200ms"] } ] }""";
        var head = Commit("head", perfJson, "go");
        // The service refuses uploads once the job has started, and is back after the agent first reports the job done.
        var down = false;
        _api.Heartbeat = _ =>
        {
            down = true;
            return FakeResponse.Ok(new HeartbeatResponse(false, DateTimeOffset.UtcNow.AddMinutes(1), null));
        };
        _api.Profiles = _ => down ? FakeResponse.Problem(503, "Service Unavailable", "restarting") : null;
        _api.Complete = _ =>
        {
            if (!down) return null;
            down = false;
            return FakeResponse.Problem(503, "Service Unavailable", "restarting");
        };

        var (complete, log) = await RunAsync(Job(head, null, new ProfileTarget("eventstore", "perfbench.BenchmarkRead/simple")), uploadRetry: TimeSpan.FromSeconds(2));

        Assert.True(complete.Succeeded, complete.Error + "\n" + log);
        Assert.Contains("kept in the spool, will retry", log);
        // Retried within the job, then from the spool: one key throughout, refused until the service was back, then
        // taken before the job was reported done.
        var posts = _api.ProfilePosts;
        Assert.True(posts.Count >= 3, $"{posts.Count} posts");
        Assert.All(posts, p => Assert.Equal("job-42-profile-eventstore-perfbench.BenchmarkRead%2Fsimple-head-1", p.Header("Idempotency-Key")));
        var requests = _api.Service.Requests.Select(r => r.Path).ToList();
        Assert.Equal(2, _api.Completes.Count);
        Assert.True(requests.FindLastIndex(p => p == "/api/v1/profiles") > requests.FindIndex(p => p.EndsWith("/complete", StringComparison.Ordinal)),
            "the spooled profile was posted once the service was back");
        Assert.True(requests.FindLastIndex(p => p == "/api/v1/profiles") < requests.FindLastIndex(p => p.EndsWith("/complete", StringComparison.Ordinal)),
            "the profile was delivered before the job was reported done");
        Assert.Empty(Directory.GetDirectories(_dir.Combine("work", "spool")));
    }

    [Fact]
    public async Task A_profile_the_service_refuses_is_not_retried_and_fails_its_target_with_the_services_message()
    {
        var head = Commit("head", """{ "suites": [ { "name": "eventstore", "harness": "gobench", "folder": "go", "quickArgs": ["-benchtime=200ms"] } ] }""", "go");
        _api.Profiles = _ => FakeResponse.Problem(400, "Unreadable profile", "the file is not a readable pprof profile");

        var (complete, _) = await RunAsync(Job(head, null, new ProfileTarget("eventstore", "perfbench.BenchmarkRead/simple")));

        Assert.False(complete.Succeeded);
        Assert.Contains("profile of perfbench.BenchmarkRead/simple (suite eventstore) failed", complete.Error);
        Assert.Contains("Unreadable profile: the file is not a readable pprof profile", complete.Error);
        Assert.Single(_api.ProfilePosts);
    }

    [Fact]
    public async Task A_job_whose_every_target_fails_fails_with_each_reason()
    {
        var head = Commit("head", """{ "suites": [ { "name": "eventstore", "harness": "gobench", "folder": "go" } ] }""", "go");

        var (complete, _) = await RunAsync(Job(head, null, new ProfileTarget("eventstore", "perfbench.BenchmarkNoSuchThing")));

        Assert.False(complete.Succeeded);
        Assert.Contains("profile of perfbench.BenchmarkNoSuchThing (suite eventstore) failed", complete.Error);
        Assert.Contains("go test ran no benchmark matching ^BenchmarkNoSuchThing$", complete.Error);
        Assert.Empty(_api.ProfilePosts);
    }

    [Fact]
    public async Task BenchmarkDotNet_benchmark_is_profiled_with_the_eventpipe_profiler_and_the_slowed_code_grew_most()
    {
        const string perfJson = """
            { "suites": [ { "name": "rivulet", "harness": "bdn", "folder": "dotnet/Rivulet.Benchmarks", "framework": "net10.0", "timeoutSeconds": 2400,
                            "env": { "PERF_BENCH_OTHER_RUNTIMES": "none" } } ] }
            """;
        var baseCommit = Commit("base", perfJson, "dotnet/Rivulet.Benchmarks", "dotnet/BenchShared");
        // The demo's slower retries: the slowdown switch burns CPU in a frame of its own, inside pool threads.
        var head = Commit("head", perfJson.Replace("\"none\"", "\"none\", \"PERF_SLOWDOWN\": \"WithRetries=100\""),
            "dotnet/Rivulet.Benchmarks", "dotnet/BenchShared");
        const string benchmark = "Rivulet.Benchmarks.AdvancedFeaturesBenchmarks.WithRetries";

        var (complete, log) = await RunAsync(Job(head, baseCommit, new ProfileTarget("rivulet", benchmark)));

        Assert.True(complete.Succeeded, complete.Error + "\n" + log);
        var posted = Posted();
        Assert.Equal([("base", "speedscope"), ("head", "speedscope")], posted.Select(p => (p.Metadata.Role, p.Metadata.Format)));
        Assert.All(posted, p =>
        {
            Assert.Contains(p.Stacks.Stacks.Keys, s => s.Contains("AdvancedFeaturesBenchmarks+<RunAsync>", StringComparison.Ordinal));
            Assert.DoesNotContain(p.Stacks.Stacks.Keys, s => s.Contains("CoreOperatorsBenchmarks", StringComparison.Ordinal));
        });
        // Not the pool's idle spin nor the GC poll the sampler stops the busy loop at: the loop itself.
        var diff = DifferentialProfile.Build(posted[0].Stacks, posted[1].Stacks);
        Assert.EndsWith("PerfBenches.Shared.Slowdown.SlowdownWork(int64)", diff.Grown[0].Frame, StringComparison.Ordinal);
    }

    private const string CriterionPerfJson = """{ "suites": [ { "name": "fibers", "harness": "criterion", "folder": "rust", "args": ["--", "--noplot"] } ] }""";

    // The frame-pointer build of benches/rust, kept between runs of these tests as an agent keeps target/.
    private static readonly string _cargoCache = Path.Combine(Path.GetTempPath(), "perfservice-agent-tests-cargo");

    [Fact]
    public async Task Criterion_benchmark_is_profiled_under_perf_record_and_folded_on_the_agent()
    {
        var head = Commit("head", CriterionPerfJson, "rust");

        var (complete, log) = await RunAsync(Job(head, null, new ProfileTarget("fibers", "context_switch/raw_fiber_switch")),
            new Dictionary<string, string?> { ["CARGO_TARGET_DIR"] = _cargoCache });

        AssertCriterionProfile(complete, log);
    }

    // perf needs nothing the sandbox takes away: perf_event_open is a plain system call, /usr/bin/perf, the symbols
    // of the bench executable and /sys/bus/event_source are read-only binds of /, and without capabilities perf
    // records user-space samples (cpu-clock:u) while kernel.perf_event_paranoid is 2 or lower.
    [SandboxFact, System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public Task Criterion_benchmark_is_profiled_inside_the_sandbox() => ProfileCriterionIsolatedAsync(new HarnessIsolation { Sandbox = true });

    [RunAsSandboxFact, System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public async Task Criterion_benchmark_is_profiled_as_another_user_inside_the_sandbox()
    {
        using var user = new ThrowawayUser();
        // The harness's user cannot enter /root, where rustup keeps this machine's toolchain: it gets the toolchain at a
        // path of its own (hard links, instant), as a machine running --run-as installs it outside home folders.
        // Outside /tmp, which the sandbox replaces, and outside the folders handed to the user (the links share the
        // toolchain's files).
        var sysroot = IsolationProbe.Run("rustc", "--print", "sysroot").Output;
        var toolchain = $"/var/tmp/perf-agent-tests-rust-{Guid.NewGuid():N}";
        try
        {
            Assert.Equal(0, IsolationProbe.Run("/bin/cp", "-al", sysroot, toolchain).Code);
            await ProfileCriterionIsolatedAsync(new HarnessIsolation { Sandbox = true, RunAs = user.Resolve() },
                new Dictionary<string, string?> { ["PATH"] = $"{toolchain}/bin:/usr/bin:/bin" });
        }
        finally
        {
            Directory.Delete(toolchain, recursive: true);
        }
    }

    /// <summary>The sandbox writes only the job's folders: the cached build is copied into the harness's home (times
    /// kept, so cargo finds it fresh and rebuilds the suite's own crate only; a copy, since --run-as hands the home to
    /// the harness's user).</summary>
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    private async Task ProfileCriterionIsolatedAsync(HarnessIsolation isolation, Dictionary<string, string?>? environment = null)
    {
        var head = Commit("head", CriterionPerfJson, "rust");
        // perf reads any file under /tmp/perf-* as a JIT symbol map (perf-PID.map), so the bench executable, built in
        // the agent's work folder here, must not live under this class's /tmp/perf-agent-tests-* folder.
        using var root = new TempDir("perfservice-agent-tests-");
        ThrowawayUser.LetIn(root.Path);
        var work = root.Combine("work");
        var target = Path.Combine(work, "home", "cargo-target");
        Directory.CreateDirectory(target);
        if (Directory.Exists(Path.Combine(_cargoCache, "profiling")))
            Assert.Equal(0, IsolationProbe.Run("/bin/cp", "-a", Path.Combine(_cargoCache, "profiling"), Path.Combine(target, "profiling")).Code);
        environment ??= [];
        environment["CARGO_TARGET_DIR"] = target;

        var (complete, log) = await RunAsync(Job(head, null, new ProfileTarget("fibers", "context_switch/raw_fiber_switch")), environment, isolation,
            workDir: work);

        AssertCriterionProfile(complete, log);
    }

    private void AssertCriterionProfile(CompleteJobRequest complete, string log)
    {
        Assert.True(complete.Succeeded, complete.Error + "\n" + log);
        var profile = Assert.Single(Posted());
        Assert.Equal(("head", "folded"), (profile.Metadata.Role, profile.Metadata.Format));
        Assert.True(profile.Stacks.Stacks.Keys.Any(s => s.Contains("fiber_switch::context_switch", StringComparison.Ordinal)),
            string.Join('\n', profile.Stacks.Stacks.Keys.Take(10)) + "\n" + log);
        // The bench executable ran under perf by itself: no sample of a cargo or rustc process. A folded stack starts
        // with the process's name; the bench's own frames may name rustc's sources (std's inlined /rustc/... paths).
        static bool ProcessIs(string stack, string name) => stack.Split(';')[0] == name || stack.StartsWith(name + "-", StringComparison.Ordinal);
        Assert.DoesNotContain(profile.Stacks.Stacks.Keys, s => ProcessIs(s, "cargo") || ProcessIs(s, "rustc"));
    }

    [Fact]
    public async Task A_kernel_that_refuses_perf_to_a_harness_that_is_not_root_is_named_in_the_job_log_with_the_value_it_needs()
    {
        var head = Commit("head", CriterionPerfJson, "rust");
        // The machine's level as Debian's kernels ship it; the check comes before anything is built.
        var paranoid = _dir.Combine("perf_event_paranoid");
        File.WriteAllText(paranoid, "3\n");
        var processes = new ProcessRunner();

        var (complete, log) = await RunAsync(Job(head, null, new ProfileTarget("fibers", "context_switch/raw_fiber_switch")),
            isolation: new HarnessIsolation { Sandbox = true }, profilers: new SuiteRunners([new CriterionProfiler(processes, paranoid)]));

        Assert.False(complete.Succeeded);
        Assert.Contains("error: profile of context_switch/raw_fiber_switch (suite fibers) failed: context_switch/raw_fiber_switch (head, round 1): "
            + "perf may not sample this benchmark: kernel.perf_event_paranoid is 3 on this machine, and the harness is not root "
            + "(it runs in the sandbox without capabilities (--sandbox)); perf needs kernel.perf_event_paranoid 2 or lower", log);
        Assert.Contains("kernel.perf_event_paranoid is 3", complete.Error);
        Assert.DoesNotContain("cargo bench", log);
        Assert.Empty(_api.ProfilePosts);
    }

    public void Dispose()
    {
        _api.Dispose();
        _dir.Dispose();
    }
}
