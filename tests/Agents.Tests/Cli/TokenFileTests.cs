namespace PerfService.Agents.Tests.Cli;

[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class TokenFileTests : IDisposable
{
    private readonly Support.TempDir _dir = new();

    private string TokenFile(UnixFileMode mode)
    {
        var file = _dir.Write("agent.token", "tok-secret\n");
        File.SetUnixFileMode(file, mode);
        return file;
    }

    // Runs the agent verb up to the point after the token is accepted: --profiles names a missing file, so it stops
    // there with that error instead of going on to the network.
    private Task<CliResult> AgentAsync(params string[] extra) =>
        CliRunner.RunAsync(["agent", "--server", "http://127.0.0.1:9", "--profile", "p", "--workdir", _dir.Combine("work"),
            "--profiles", _dir.Combine("missing-profiles.json"), .. extra]);

    [Theory]
    [InlineData(0b110_100_000)] // 640: group may read
    [InlineData(0b110_000_100)] // 604: others may read
    [InlineData(0b110_010_000)] // 620: group may write
    [InlineData(0b110_110_110)] // 666
    public async Task A_token_file_others_may_read_or_write_is_refused_naming_the_file(int mode)
    {
        var file = TokenFile((UnixFileMode)mode);
        var result = await AgentAsync("--token-file", file);
        Assert.Equal(1, result.ExitCode);
        Assert.Contains($"--token-file {file} is readable or writable by group or others", result.Error);
        Assert.Contains($"chmod 600 {file}", result.Error);
        Assert.DoesNotContain("tok-secret", result.Error + result.Output);
    }

    [Fact]
    public async Task A_token_file_only_the_agents_user_can_read_is_accepted()
    {
        var result = await AgentAsync("--token-file", TokenFile(UnixFileMode.UserRead | UnixFileMode.UserWrite));
        Assert.Equal(1, result.ExitCode);
        Assert.DoesNotContain("token", result.Error);
        Assert.Contains("missing-profiles.json does not exist", result.Error);
    }

    [Fact]
    public async Task The_token_option_still_works_and_cannot_be_combined_with_a_token_file()
    {
        var plain = await AgentAsync("--token", "tok-secret");
        Assert.Contains("missing-profiles.json does not exist", plain.Error);

        var both = await AgentAsync("--token", "tok-secret", "--token-file", TokenFile(UnixFileMode.UserRead));
        Assert.Equal(1, both.ExitCode);
        Assert.Contains("give --token or --token-file, not both", both.Error);
    }

    [Fact]
    public async Task A_missing_or_empty_token_file_is_refused()
    {
        Assert.Contains("no such file", (await AgentAsync("--token-file", _dir.Combine("nope"))).Error);
        var empty = _dir.Write("empty.token", "\n");
        File.SetUnixFileMode(empty, UnixFileMode.UserRead);
        Assert.Contains("is empty", (await AgentAsync("--token-file", empty)).Error);
    }

    public void Dispose() => _dir.Dispose();
}
