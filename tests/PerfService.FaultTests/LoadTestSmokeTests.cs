using System.Text.RegularExpressions;
using PerfService.FaultTests.Infrastructure;
using Xunit.Abstractions;

namespace PerfService.FaultTests;

/// <summary>The load tool's short form (5 agents × 5 s) against the service as a process: it must run, find no
/// errors and no lost data, and exit 0. The full run is ./perf loadtest.</summary>
public sealed class LoadTestSmokeTests(ITestOutputHelper output)
{
    [Fact]
    public async Task The_short_load_test_passes()
    {
        using var scratch = new Scratch("load");
        await using var db = await TestDatabase.CreateAsync();
        await using var service = new ServiceProcess(db.ConnectionString, scratch.Root,
            new Dictionary<string, string?> { ["RateLimit__PermitPerMinute"] = "1000000" });
        await using var tool = await RunToolAsync(service, db, scratch, "--agents", "5", "--warmup-seconds", "2", "--seconds", "5", "--readers", "2");
        Assert.True(tool.ExitCode == 0, tool.Output);
        Assert.Contains(tool.Lines, l => l.StartsWith("RESULT: PASS", StringComparison.Ordinal));
        // The warm-up's runs are verified with the rest; its latencies are reported apart.
        Assert.Contains("warm-up, not measured: 5 agents for 2 s", tool.Output);
        var lag = Assert.Single(tool.Lines, l => l.StartsWith("analysis lag (stored → analysed): p50 ", StringComparison.Ordinal));
        Assert.Matches(@"backlog when the load started: \d+ waiting; when it stopped: \d+ waiting", lag);
        Assert.Contains("drained", lag);
        // The lag is read from the runs stored during the measured load: the warm-up's runs are verified with the rest
        // but left out of it.
        var stored = Regex.Match(Assert.Single(tool.Lines, l => l.StartsWith("verification (database):", StringComparison.Ordinal)), @"; (\d+) stored \(");
        Assert.True(stored.Success, tool.Output);
        var measured = Regex.Match(lag, @"over the (\d+) runs stored during the measured load");
        Assert.True(measured.Success, lag);
        Assert.InRange(int.Parse(measured.Groups[1].Value), 1, int.Parse(stored.Groups[1].Value) - 1);
        Assert.Contains(tool.Lines, l => l.Contains("server errors (5xx): 0", StringComparison.Ordinal));
        // The capacity ratios, the service's CPU read from /proc, and every goal checked.
        Assert.Matches(@"^throughput: stored \d+\.\d runs/s, analysed \d+\.\d runs/s during the load \(analysed/stored ",
            Assert.Single(tool.Lines, l => l.StartsWith("throughput:", StringComparison.Ordinal)));
        Assert.Contains(tool.Lines, l => l.StartsWith("CPU (service process, PostgreSQL not included): ", StringComparison.Ordinal));
        Assert.Contains(tool.Lines, l => Regex.IsMatch(l, @"^machine: \d+\.\d ms of CPU per stored run over the load, every process on it \(PostgreSQL \d+\.\d ms, this load tool \d+\.\d ms of it\)$"));
        Assert.Contains(tool.Lines, l => Regex.IsMatch(l, @"^memory: peak resident set of the service \(both \d+ MB\)$"));
        Assert.Contains(tool.Lines, l => l.StartsWith("goals (one process with both roles;", StringComparison.Ordinal));
        Assert.Contains(tool.Lines, l => Regex.IsMatch(l, @"^  (met    |NOT MET|n/a    )  ingest p99 < 500 ms: \d+ ms$"));
        // The ratio is stored + waiting at the start − waiting at the stop, over stored: both counts are beside it.
        Assert.Contains(tool.Lines, l => Regex.IsMatch(l,
            @"^  (met    |NOT MET)  analysed/stored during the load ≥ 1\.00: \d\.\d{3} \(waiting: \d+ at the start, \d+ at the stop\)$"));
        var errors = service.ErrorLogLines();
        Assert.True(errors.Count == 0, "the service logged errors:\n" + string.Join('\n', errors));
    }

    [Fact]
    public async Task Any_5xx_fails_the_load_test_and_the_report_names_each()
    {
        // One upload slot and no queue: concurrent posts are answered 503 "Uploads busy", a real 5xx of the real service.
        using var scratch = new Scratch("load-5xx");
        await using var db = await TestDatabase.CreateAsync();
        await using var service = new ServiceProcess(db.ConnectionString, scratch.Root, new Dictionary<string, string?>
        {
            ["RateLimit__PermitPerMinute"] = "1000000", ["Ingest__MaxConcurrentUploads"] = "1", ["Ingest__QueueSeconds"] = "0",
        });
        await using var tool = await RunToolAsync(service, db, scratch, "--agents", "6", "--warmup-seconds", "0", "--seconds", "4", "--readers", "0", "--think-ms", "0");
        Assert.Equal(1, tool.ExitCode);
        Assert.Contains(tool.Lines, l => l.StartsWith("RESULT: FAIL", StringComparison.Ordinal));
        var count = Regex.Match(tool.Output, @"server errors \(5xx, warm-up included\): (\d+), each one fails the run:");
        Assert.True(count.Success && int.Parse(count.Groups[1].Value) > 0, tool.Output);
        Assert.Contains(tool.Lines, l => Regex.IsMatch(l, @"^  \d\d:\d\d:\d\d\.\d{3} 503 ingest[^:]*: POST api/v1/runs \(Idempotency-Key [^)]+\): .*Uploads busy"));
    }

    private async Task<ChildProcess> RunToolAsync(ServiceProcess service, TestDatabase db, Scratch scratch, params string[] load)
    {
        await service.StartAsync();
        var admin = await db.CreateTokenAsync("load-admin", "admin");
        var ingest = await db.CreateTokenAsync("load-ingest", "ingest");
        var tool = ChildProcess.Start("dotnet",
            [TestPaths.LoadTestDll, "--server", service.BaseAddress.ToString(), "--admin-token", admin, "--ingest-token", ingest,
             "--db", db.ConnectionString, "--fixtures", TestPaths.Fixtures, "--results", "50-200", "--analysis-wait", "30",
             "--service-pid", service.Process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture), .. load],
            scratch.Root);
        var finished = await tool.WaitForExitAsync(TimeSpan.FromSeconds(120));
        output.WriteLine(tool.Output);
        Assert.True(finished, "the load tool did not stop by itself");
        return tool;
    }
}
