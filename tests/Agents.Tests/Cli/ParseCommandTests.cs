using System.Text.Json;
using PerfService.Agents.Tests.Support;

namespace PerfService.Agents.Tests.Cli;

public sealed class ParseCommandTests : IDisposable
{
    private readonly TempDir _dir = new();

    [Fact]
    public async Task Prints_one_object_per_benchmark_and_measure()
    {
        var result = await CliRunner.RunAsync("parse", TestPaths.Fixture("benchmarkdotnet", "newday-bdn0.15.8-params-servergc-report-full.json"));
        Assert.Equal(0, result.ExitCode);
        using var doc = JsonDocument.Parse(result.Output);
        var items = doc.RootElement.EnumerateArray().ToList();
        Assert.NotEmpty(items);
        var time = items.First(i => i.GetProperty("measure").GetString() == "time");
        Assert.Equal(
            ["benchmark", "name", "parameters", "job", "measure", "unit", "direction", "value", "samples"],
            time.EnumerateObject().Select(p => p.Name));
        Assert.Equal(JsonValueKind.Object, time.GetProperty("parameters").ValueKind);
        Assert.Equal("1000", time.GetProperty("parameters").GetProperty("N").GetString());
        Assert.Contains("N=1000", time.GetProperty("benchmark").GetString());
        Assert.Equal("ns", time.GetProperty("unit").GetString());
        Assert.Equal("lower_is_better", time.GetProperty("direction").GetString());
        Assert.True(time.GetProperty("value").GetDouble() > 0);
        Assert.Contains("\n  {", result.Output); // indented
    }

    [Fact]
    public async Task A_folder_is_read_recursively_as_a_criterion_tree()
    {
        var result = await CliRunner.RunAsync("parse", TestPaths.Fixture("criterion", "cryptobench-criterion-0.5.1"), "--format", "criterion");
        Assert.Equal(0, result.ExitCode);
        using var doc = JsonDocument.Parse(result.Output);
        Assert.Contains(doc.RootElement.EnumerateArray(), i => i.GetProperty("name").GetString()!.StartsWith("aes_128_gcm", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Failed_benchmarks_carry_an_error()
    {
        var result = await CliRunner.RunAsync("parse", TestPaths.Fixture("benchmarkdotnet", "mcostello-bdn0.14.1-nightly-linux-one-failed-report-full-compressed.json"));
        Assert.Equal(0, result.ExitCode);
        using var doc = JsonDocument.Parse(result.Output);
        var failed = doc.RootElement.EnumerateArray().Where(i => i.TryGetProperty("error", out _)).ToList();
        Assert.NotEmpty(failed);
        Assert.All(failed, f => Assert.Equal(JsonValueKind.Null, f.GetProperty("value").ValueKind));
    }

    [Fact]
    public async Task Unparseable_input_names_file_and_place_and_exits_2()
    {
        var file = _dir.Write("broken.json", "{\"results\": [ {\"benchmark\": \"x\", \"unit\": \"ns\"} ]}");
        var result = await CliRunner.RunAsync("parse", file, "--format", "json");
        Assert.Equal(2, result.ExitCode);
        Assert.StartsWith("error: broken.json at ", result.Error);
        Assert.Empty(result.Output);
    }

    [Fact]
    public async Task Missing_path_and_unknown_format_are_usage_errors()
    {
        Assert.Equal(1, (await CliRunner.RunAsync("parse", _dir.Combine("nope.json"))).ExitCode);
        Assert.NotEqual(0, (await CliRunner.RunAsync("parse", _dir.Combine("nope.json"), "--format", "xml")).ExitCode);
    }

    public void Dispose() => _dir.Dispose();
}
