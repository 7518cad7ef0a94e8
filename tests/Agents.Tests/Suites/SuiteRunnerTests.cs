using PerfService.Agents.Jobs;
using PerfService.Agents.Processes;
using PerfService.Agents.Suites;
using PerfService.Agents.Tests.Support;
using PerfService.Core.Suites;

namespace PerfService.Agents.Tests.Suites;

/// <summary>Each harness runner against a fake tool that writes a real captured output file, as the real tool would.</summary>
public sealed class SuiteRunnerTests : IDisposable
{
    private readonly TempDir _dir = new();
    private readonly FakeTools _tools;
    private readonly SuiteRunners _runners = SuiteRunners.CreateDefault(new ProcessRunner());
    private readonly List<string> _log = [];

    public SuiteRunnerTests() => _tools = new FakeTools(_dir.Combine("bin"));

    private SuiteRun Run(Harness harness, IReadOnlyList<string>? args = null, string? command = null, int timeout = 60, int? count = null)
    {
        var folder = Directory.CreateDirectory(_dir.Combine("repo", "bench")).FullName;
        var suite = new SuiteDeclaration { Name = "s", Harness = harness, Folder = "bench", Command = command, TimeoutSeconds = timeout, Count = count };
        return new SuiteRun(suite, folder, args ?? [], _tools.Environment, null, _dir.Combine("scratch"), l => { lock (_log) _log.Add(l); });
    }

    private string ArgsFile => _dir.Combine("args.txt");

    [Fact]
    public async Task Bdn_runs_dotnet_run_with_the_filter_and_uploads_fresh_full_reports()
    {
        var fixture = TestPaths.Fixture("benchmarkdotnet", "newday-bdn0.15.8-params-servergc-report-full.json");
        _tools.Add("dotnet", $"""
            echo "$@" > {ArgsFile}
            mkdir -p BenchmarkDotNet.Artifacts/results
            cp '{fixture}' BenchmarkDotNet.Artifacts/results/Md5VsSha256-report-full.json
            echo '// ***** BenchmarkRunner: End *****'
            """);
        var run = Run(Harness.Bdn, ["--job", "short"]);
        // A report left by an earlier run must not be uploaded again.
        Directory.CreateDirectory(Path.Combine(run.Folder, "BenchmarkDotNet.Artifacts", "results"));
        File.WriteAllText(Path.Combine(run.Folder, "BenchmarkDotNet.Artifacts", "results", "Old-report-full.json"), "{}");

        var output = await _runners.For(Harness.Bdn).RunAsync(run, CancellationToken.None);

        Assert.Equal("run -c Release -- --filter * --job short", File.ReadAllText(ArgsFile).Trim());
        Assert.Equal("bdn", output.Format);
        Assert.Equal(["Md5VsSha256-report-full.json"], output.Files.Select(f => f.Path));
        Assert.Contains("// ***** BenchmarkRunner: End *****", _log);
        Assert.NotEmpty(ResultCheck.Check("suite s", output, TimeSpan.FromMinutes(1)).Results);
    }

    [Fact]
    public async Task Criterion_uploads_only_new_results_relative_to_target_criterion()
    {
        var fixture = TestPaths.Fixture("criterion", "cryptobench-criterion-0.5.1", "aes_128_gcm-1kb");
        _tools.Add("cargo", $"""
            echo "$@" > {ArgsFile}
            mkdir -p "$CRITERION_HOME/aes_128_gcm-1kb"
            cp -r '{fixture}/new' '{fixture}/base' "$CRITERION_HOME/aes_128_gcm-1kb/"
            echo 'Benchmarking aes_128_gcm-1kb: Complete'
            """);
        var run = Run(Harness.Criterion, ["--bench", "crypto"]);
        Directory.CreateDirectory(Path.Combine(run.Folder, "target", "criterion", "stale", "new"));
        File.WriteAllText(Path.Combine(run.Folder, "target", "criterion", "stale", "new", "estimates.json"), "{}");

        var output = await _runners.For(Harness.Criterion).RunAsync(run, CancellationToken.None);

        Assert.Equal("bench --bench crypto", File.ReadAllText(ArgsFile).Trim());
        Assert.Equal(
            ["aes_128_gcm-1kb/new/benchmark.json", "aes_128_gcm-1kb/new/estimates.json", "aes_128_gcm-1kb/new/sample.json"],
            output.Files.Select(f => f.Path));
        Assert.NotEmpty(ResultCheck.Check("suite s", output, TimeSpan.FromMinutes(1)).Results);
    }

    [Fact]
    public async Task Gobench_runs_go_test_and_uploads_stdout()
    {
        var fixture = TestPaths.Fixture("gobench", "goperf-suffixarray-benchmem-count10.txt");
        _tools.Add("go", $"""
            echo "$@" > {ArgsFile}
            echo "slowdown=$PERF_SLOWDOWN" >&2
            cat '{fixture}'
            """);
        var run = Run(Harness.Gobench, ["-benchtime", "100x"], count: 3) with
        {
            Environment = new Dictionary<string, string?>(_tools.Environment) { ["PERF_SLOWDOWN"] = "1.2" },
        };

        var output = await _runners.For(Harness.Gobench).RunAsync(run, CancellationToken.None);

        Assert.Equal("test -run ^$ -bench . -benchmem -count 3 -benchtime 100x ./...", File.ReadAllText(ArgsFile).Trim());
        var file = Assert.Single(output.Files);
        Assert.Equal("gobench.txt", file.Path);
        Assert.Equal(File.ReadAllText(fixture).TrimEnd('\n'), System.Text.Encoding.UTF8.GetString(file.Content.Span).TrimEnd('\n'));
        Assert.Contains("slowdown=1.2", _log);
        Assert.NotEmpty(ResultCheck.Check("suite s", output, TimeSpan.FromMinutes(1)).Results);
    }

    [Fact]
    public async Task Json_harness_runs_the_command_with_PERF_OUTPUT()
    {
        var run = Run(Harness.Json, ["7"], command: """
            printf '{"results":[{"benchmark":"queue/publish","unit":"ns","value":%s}]}' "$1" > "$PERF_OUTPUT"
            """);
        var output = await _runners.For(Harness.Json).RunAsync(run, CancellationToken.None);
        var parsed = ResultCheck.Check("suite s", output, TimeSpan.FromMinutes(1));
        Assert.Equal(7, Assert.Single(parsed.Results).Value);
    }

    [Fact]
    public async Task Bdn_passes_the_declared_framework_to_dotnet_run()
    {
        _tools.Add("dotnet", $"echo \"$@\" > {ArgsFile}\n");
        var run = Run(Harness.Bdn, ["--quick"]);
        run = run with { Suite = run.Suite with { Framework = "net10.0" } };
        await _runners.For(Harness.Bdn).RunAsync(run, CancellationToken.None);
        Assert.Equal("run -c Release -f net10.0 -- --filter * --quick", File.ReadAllText(ArgsFile).Trim());
    }

    [Fact]
    public void The_repository_manifest_declares_every_seed_suite_with_its_new_fields()
    {
        var manifest = SuiteManifest.Parse(File.ReadAllText(Path.Combine(TestPaths.RepoRoot, "benches", "perf.json")));
        var byName = manifest.Suites.ToDictionary(s => s.Name);
        Assert.Equal("net10.0", byName["rivulet"].Framework);
        Assert.Equal(["target/perf/fiber_memory.json"], byName["fibers"].Outputs);
        Assert.Contains(byName["fibers"].Targets, t => t.Measure == "memory" && t.Unit == "KB" && t.Value == 256);
        Assert.Equal(Harness.Counters, byName["perper"].Harness);
        Assert.Contains(byName["eventstore"].Targets, t => t.Measure == "success-%" && t.Op == ">=" && t.Value == 100);
    }

    [Fact]
    public async Task Counters_harness_uploads_the_table_the_program_prints()
    {
        var fixture = TestPaths.Fixture("counters", "perper-messaging-enumeration-10-nodes.md");
        var run = Run(Harness.Counters, ["10"], command: $"echo \"nodes=$1\" >&2; cat '{fixture}'");
        var output = await _runners.For(Harness.Counters).RunAsync(run, CancellationToken.None);
        Assert.Equal("counters", output.Format);
        Assert.Equal("counters.txt", Assert.Single(output.Files).Path);
        Assert.Contains("nodes=10", _log);
        var parsed = ResultCheck.Check("suite s", output, TimeSpan.FromMinutes(1));
        Assert.Equal(12, parsed.Results.Single(r => r.Name == "Perper.Messaging.Sent").Samples!.Count);
    }

    [Fact]
    public async Task Declared_extra_outputs_in_a_folder_a_fresh_checkout_lacks_are_no_error()
    {
        _tools.Add("go", """
            mkdir -p target/perf
            printf '{"results":[{"benchmark":"memory/per_fiber","unit":"B","value":%s}]}' 2048 > target/perf/fiber_memory.json
            echo 'BenchmarkX-2 1 100 ns/op'
            """);
        var run = Run(Harness.Gobench);
        run = run with { Suite = run.Suite with { Outputs = ["target/perf/fiber_memory.json"] } };
        Assert.False(Directory.Exists(Path.Combine(run.Folder, "target")));

        var output = await _runners.For(Harness.Gobench).RunAsync(run, CancellationToken.None);

        Assert.Contains("outputs/target/perf/fiber_memory.json", output.Files.Select(f => f.Path));
    }

    [Fact]
    public async Task Declared_extra_outputs_ride_along_and_are_parsed_by_content()
    {
        var fixture = TestPaths.Fixture("gobench", "gab-fiber-multipackage-MBps.txt");
        _tools.Add("go", $$"""
            mkdir -p out
            printf '{"results":[{"benchmark":"memory_per_fiber","unit":"B","value":%s}]}' 4096 > out/memory.json
            cat '{{fixture}}'
            """);
        var run = Run(Harness.Gobench);
        run = run with { Suite = run.Suite with { Outputs = ["out/memory.json", "out/missing.json"] } };
        // A file left by an earlier run is deleted first, so a run that does not write it uploads nothing stale.
        Directory.CreateDirectory(Path.Combine(run.Folder, "out"));
        File.WriteAllText(Path.Combine(run.Folder, "out", "missing.json"), "{}");

        var output = await _runners.For(Harness.Gobench).RunAsync(run, CancellationToken.None);

        Assert.Equal("auto", output.Format);
        Assert.Equal(["gobench.txt", "outputs/out/memory.json"], output.Files.Select(f => f.Path));
        Assert.Contains(_log, l => l.Contains("'out/missing.json' was not written", StringComparison.Ordinal));
        var parsed = ResultCheck.Check("suite s", output, TimeSpan.FromMinutes(1));
        Assert.Equal("gobench+json", parsed.Format);
        Assert.Equal(4096, parsed.Results.Single(r => r.Name == "memory_per_fiber").Value);
    }

    [Fact]
    public async Task A_failing_harness_fails_with_its_own_error_output()
    {
        _tools.Add("cargo", "echo 'Compiling fibers v0.1.0'\necho 'error[E0425]: cannot find value `x` in this scope' >&2\nexit 101\n");
        var output = await _runners.For(Harness.Criterion).RunAsync(Run(Harness.Criterion), CancellationToken.None);
        var e = Assert.Throws<JobFailedException>(() => ResultCheck.Check("suite s (head, round 1)", output, TimeSpan.FromMinutes(1)));
        Assert.Contains("exited with code 101", e.Message);
        Assert.Contains("error[E0425]: cannot find value `x` in this scope", e.Message);
    }

    [Fact]
    public async Task A_hanging_harness_is_killed_at_its_timeout()
    {
        _tools.Add("go", "echo 'goos: linux'\nsleep 300\n");
        var output = await _runners.For(Harness.Gobench).RunAsync(Run(Harness.Gobench, timeout: 1), CancellationToken.None);
        Assert.True(output.Process.TimedOut);
        var e = Assert.Throws<JobFailedException>(() => ResultCheck.Check("suite s", output, TimeSpan.FromSeconds(1)));
        Assert.Contains("timed out after 1 s", e.Message);
        Assert.Contains("goos: linux", e.Message);
    }

    [Fact]
    public async Task A_harness_that_writes_nothing_fails_with_its_output_tail()
    {
        _tools.Add("dotnet", "echo 'No benchmarks matched the filter' >&2\n");
        var output = await _runners.For(Harness.Bdn).RunAsync(Run(Harness.Bdn), CancellationToken.None);
        var e = Assert.Throws<JobFailedException>(() => ResultCheck.Check("suite s", output, TimeSpan.FromMinutes(1)));
        Assert.Contains("wrote no bdn results", e.Message);
        Assert.Contains("No benchmarks matched the filter", e.Message);
    }

    [Fact]
    public async Task Cpus_pin_the_harness_with_taskset()
    {
        _tools.Add("taskset", $"echo \"$@\" > {ArgsFile}\nshift 2\nexec \"$@\"\n");
        _tools.Add("go", "echo 'BenchmarkX-2 \t 100\t 12.5 ns/op'\n");
        var run = Run(Harness.Gobench) with { Cpus = "2-3" };
        var output = await _runners.For(Harness.Gobench).RunAsync(run, CancellationToken.None);
        Assert.StartsWith("-c 2-3 go test", File.ReadAllText(ArgsFile));
        Assert.NotEmpty(ResultCheck.Check("suite s", output, TimeSpan.FromMinutes(1)).Results);
    }

    public void Dispose() => _dir.Dispose();
}
