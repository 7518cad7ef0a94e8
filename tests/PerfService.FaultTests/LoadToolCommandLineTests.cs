using PerfService.FaultTests.Infrastructure;

namespace PerfService.FaultTests;

/// <summary>The load tool's command line (System.CommandLine), run as ./perf loadtest runs it: help from the
/// declarations, bad values refused with exit code 2 before anything is sent. The honest path is LoadTestSmokeTests.</summary>
public sealed class LoadToolCommandLineTests
{
    private static async Task<ChildProcess> RunAsync(params string[] args)
    {
        using var scratch = new Scratch("load-cli");
        var tool = ChildProcess.Start("dotnet", [TestPaths.LoadTestDll, .. args], scratch.Root);
        Assert.True(await tool.WaitForExitAsync(TimeSpan.FromSeconds(60)), "the load tool did not stop by itself");
        return tool;
    }

    [Fact]
    public async Task Help_lists_every_option_with_its_default()
    {
        await using var tool = await RunAsync("--help");
        Assert.Equal(0, tool.ExitCode);
        foreach (var option in new[] { "--server", "--agents", "--seconds", "--readers", "--think-ms", "--results", "--analysis-wait", "--json-report" })
            Assert.Contains(option, tool.Output);
        Assert.Contains("[default: 50-500]", tool.Output);
        Assert.Contains("[default: 60]", tool.Output);
        Assert.Contains("--commits", tool.Output);
        Assert.Contains("[default: main]", tool.Output);
    }

    [Fact]
    public async Task Without_arguments_it_shows_the_help_and_exits_2()
    {
        await using var tool = await RunAsync();
        Assert.Equal(2, tool.ExitCode);
        Assert.Contains("--server", tool.Output);
    }

    [Theory]
    [InlineData("--server", "http://192.0.2.1:5000", "--server must be a loopback address")]
    [InlineData("--agents", "0", "--agents must be a whole number between 1 and 1000, not '0'")]
    [InlineData("--results", "9-3", "--results '9-3' must be MIN-MAX within 1-5000")]
    [InlineData("--repeat-rate", "often", "--repeat-rate must be a number between 0 and 1, not 'often'")]
    [InlineData("--commits", "random", "'random'")]
    [InlineData("--agentz", "5", "--agentz")]
    public async Task A_bad_value_is_refused_with_exit_code_2_before_anything_is_sent(string option, string value, string message)
    {
        string[] valid = ["--server", "http://127.0.0.1:9", "--admin-token", "a", "--ingest-token", "b", "--db", "Host=127.0.0.1"];
        var args = option == "--server" ? ["--server", value, .. valid[2..]] : valid.Append(option).Append(value).ToArray();
        await using var tool = await RunAsync(args);
        Assert.Equal(2, tool.ExitCode);
        Assert.Contains(message, tool.Output);
        Assert.DoesNotContain("RESULT:", tool.Output);
    }
}
