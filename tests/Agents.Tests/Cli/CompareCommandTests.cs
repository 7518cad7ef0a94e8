using System.Globalization;
using System.Text;
using System.Text.Json;
using PerfService.Agents.Tests.Support;

namespace PerfService.Agents.Tests.Cli;

public sealed class CompareCommandTests : IDisposable
{
    private readonly TempDir _dir = new();

    /// <summary>One `go test -bench -count=10 -benchmem` run: Fast and Slow (time × slowdown), Alloc (bytes × allocFactor).</summary>
    private string GoRun(string name, int seed, double slowdown, double allocFactor, double runOffset)
    {
        var rng = new Random(seed);
        var sb = new StringBuilder("goos: linux\ngoarch: amd64\npkg: example\n");
        for (var i = 0; i < 10; i++)
        {
            double Noise() => runOffset * Math.Exp(0.01 * (rng.NextDouble() - 0.5) * 3.4);
            sb.Append(CultureInfo.InvariantCulture, $"BenchmarkFast-8\t1000\t{1000 * Noise():0.0} ns/op\t64 B/op\t1 allocs/op\n");
            sb.Append(CultureInfo.InvariantCulture, $"BenchmarkSlow-8\t1000\t{5000 * slowdown * Noise():0.0} ns/op\t64 B/op\t1 allocs/op\n");
            sb.Append(CultureInfo.InvariantCulture, $"BenchmarkAlloc-8\t1000\t{2000 * Noise():0.0} ns/op\t{Math.Round(256 * allocFactor)} B/op\t{Math.Round(4 * allocFactor)} allocs/op\n");
        }
        sb.Append("PASS\nok  \texample\t1.0s\n");
        return _dir.Write(name + ".txt", sb.ToString());
    }

    [Fact]
    public async Task Several_rounds_a_side_judge_time_and_allocations_and_print_the_json_contract()
    {
        // Three rounds a side, each with its own run offset (the machine's state): Slow is 25% slower, Alloc allocates 1.5×.
        var offsets = new[] { 1.0, 1.015, 0.99 };
        var bases = offsets.Select((o, i) => GoRun($"base{i}", i, 1, 1, o)).ToArray();
        var heads = offsets.Select((o, i) => GoRun($"head{i}", 10 + i, 1.25, 1.5, o * 1.005)).ToArray();
        var result = await CliRunner.RunAsync(["compare", "--base", .. bases, "--head", .. heads, "--output", "json"]);
        Assert.Equal(3, result.ExitCode); // a regression
        using var doc = JsonDocument.Parse(result.Output);
        var items = doc.RootElement.EnumerateArray().ToList();
        Assert.All(items, i => Assert.Equal(
            ["benchmark", "measure", "unit", "outcome", "change", "ciLower", "ciUpper", "p", "reason", "base", "head", "baseRounds", "headRounds",
                "noChangeMargin", "threshold"],
            i.EnumerateObject().Select(p => p.Name)));
        // No history on the command line: one margin, the default 5%, serves both.
        Assert.All(items.Where(i => i.GetProperty("reason").GetString()!.Contains("rounds", StringComparison.Ordinal)), i =>
            Assert.Equal((0.05, 0.05), (i.GetProperty("noChangeMargin").GetDouble(), i.GetProperty("threshold").GetDouble())));
        Assert.All(items, i => Assert.Contains(i.GetProperty("outcome").GetString(), new[] { "regression", "improvement", "inconclusive", "no_change" }));
        JsonElement Find(string bench, string measure) =>
            items.Single(i => i.GetProperty("benchmark").GetString()!.Contains(bench, StringComparison.Ordinal) && i.GetProperty("measure").GetString() == measure);

        var slow = Find("Slow", "time");
        Assert.Equal("regression", slow.GetProperty("outcome").GetString());
        Assert.InRange(slow.GetProperty("change").GetDouble(), 0.2, 0.3);
        Assert.True(slow.GetProperty("ciLower").GetDouble() > 0.05);
        Assert.Equal(3, slow.GetProperty("baseRounds").GetInt32());
        Assert.Contains("3+3 rounds", slow.GetProperty("reason").GetString());
        // One set of numbers: the change shown is head/base − 1 of the figures shown.
        Assert.All(items.Where(i => i.GetProperty("change").ValueKind == JsonValueKind.Number), i =>
            Assert.Equal(i.GetProperty("head").GetDouble() / i.GetProperty("base").GetDouble() - 1, i.GetProperty("change").GetDouble(), 9));

        Assert.Equal("no_change", Find("Fast", "time").GetProperty("outcome").GetString());
        var bytes = Find("Alloc", "alloc");
        Assert.Equal("regression", bytes.GetProperty("outcome").GetString());
        Assert.Equal(0.5, bytes.GetProperty("change").GetDouble(), 9);
        Assert.Contains("deterministic", bytes.GetProperty("reason").GetString());
        Assert.Equal("regression", Find("Alloc", "allocs").GetProperty("outcome").GetString());
        Assert.Equal("no_change", Find("Fast", "alloc").GetProperty("outcome").GetString());
    }

    [Fact]
    public async Task One_run_a_side_says_it_assumed_no_run_to_run_noise()
    {
        var result = await CliRunner.RunAsync("compare", GoRun("base", 1, 1, 1, 1), GoRun("head", 2, 1.25, 1, 1), "--output", "markdown");
        Assert.Equal(3, result.ExitCode);
        Assert.StartsWith("| Benchmark | Measure | Base | Head | Change |", result.Output, StringComparison.Ordinal);
        Assert.Contains("assumed no run-to-run noise", result.Output);
        Assert.Contains("REGRESSION", result.Output);
    }

    [Fact]
    public async Task A_real_fixture_compared_with_itself_changes_nothing()
    {
        foreach (var fixture in new[]
                 {
                     TestPaths.Fixture("benchmarkdotnet", "powerutils-bdn0.15.1-gen0-gen1-report-full.json"),
                     TestPaths.Fixture("gobench", "goperf-suffixarray-benchmem-count10.txt"),
                     TestPaths.Fixture("criterion", "cryptobench-criterion-0.5.1"),
                 })
        {
            var result = await CliRunner.RunAsync("compare", "--base", fixture, fixture, "--head", fixture, fixture, "--output", "json");
            Assert.Equal(0, result.ExitCode);
            using var doc = JsonDocument.Parse(result.Output);
            Assert.All(doc.RootElement.EnumerateArray(), i => Assert.DoesNotContain(i.GetProperty("outcome").GetString(), new[] { "regression", "improvement" }));
        }
    }

    [Fact]
    public async Task Neither_form_given_is_an_error()
    {
        var result = await CliRunner.RunAsync("compare", "--output", "json");
        Assert.Equal(1, result.ExitCode);
        Assert.Contains("--base RUN", result.Error);
    }

    public void Dispose() => _dir.Dispose();
}
