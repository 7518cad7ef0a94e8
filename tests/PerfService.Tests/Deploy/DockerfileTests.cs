using System.Text.RegularExpressions;

namespace PerfService.Tests.Deploy;

/// <summary>deploy/docker cannot be built here (no Docker engine): check what can be read: stages, user, entry points,
/// and that every path copied from the build context exists in the checkout.</summary>
public sealed partial class DockerfileTests
{
    [Fact]
    public void TheServiceImageBuildsWithTheSdkAndRunsOnAspNetAsNonRoot()
    {
        var text = Read("Dockerfile.service");
        var stages = From().Matches(text).Select(m => m.Groups[1].Value).ToList();
        Assert.Equal(2, stages.Count);
        Assert.StartsWith("mcr.microsoft.com/dotnet/sdk:", stages[0]);
        Assert.StartsWith("mcr.microsoft.com/dotnet/aspnet:", stages[1]);
        Assert.Contains("dotnet publish src/PerfService/PerfService.csproj", text);
        Assert.Contains("dotnet publish migrations/PerfService.Migrations.csproj", text);
        Assert.Matches(@"(?m)^USER \$APP_UID$", text);
        Assert.Matches(@"(?m)^ENTRYPOINT \[""dotnet"", ""/app/PerfService.dll""\]$", text);
    }

    [Fact]
    public void TheAgentImageHasTheToolchainsTheSuitesNeed()
    {
        var text = Read("Dockerfile.agent");
        var stages = From().Matches(text).Select(m => m.Groups[1].Value).ToList();
        Assert.All(stages, s => Assert.StartsWith("mcr.microsoft.com/dotnet/sdk:", s)); // the agent runs `dotnet run`
        // bubblewrap for --sandbox, linux-perf for profiles of criterion suites.
        foreach (var package in new[] { "git", "golang-go", "cargo", "bubblewrap", "linux-perf" }) Assert.Matches($@"apt-get install[^\n]*\b{package}\b", text);
        Assert.Contains("--token-file /run/secrets/", text); // the documented token is a secret file, not PERF_TOKEN
        Assert.DoesNotMatch(@"(?m)^ENV[^\n]*PERF_TOKEN", text);
        Assert.Contains("/opt/perf-agent/profiles.json", text);
        Assert.Matches(@"(?m)^USER \$APP_UID$", text);
        Assert.Matches(@"(?m)^ENTRYPOINT \[""dotnet"", ""/opt/perf-agent/perf-agent.dll""\]$", text);
    }

    [Theory]
    [InlineData("Dockerfile.service")]
    [InlineData("Dockerfile.agent")]
    public void EverythingCopiedFromTheContextExists(string dockerfile)
    {
        var copies = Copy().Matches(Read(dockerfile)).ToList();
        Assert.NotEmpty(copies);
        foreach (var copy in copies)
        {
            var words = copy.Groups[1].Value.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            foreach (var source in words[..^1])
            {
                var path = Path.Combine(DeployFiles.RepoRoot, source.TrimEnd('/'));
                Assert.True(File.Exists(path) || Directory.Exists(path), $"{dockerfile}: COPY {source} does not exist in the checkout");
            }
        }
        Assert.True(File.Exists(Path.Combine(DeployFiles.DockerDir, dockerfile + ".dockerignore")));
    }

    private static string Read(string name) => File.ReadAllText(Path.Combine(DeployFiles.DockerDir, name));

    [GeneratedRegex(@"(?m)^FROM (\S+)")]
    private static partial Regex From();

    // COPY lines that take files from the build context (not --from=stage).
    [GeneratedRegex(@"(?m)^COPY (?!--from)(.+)$")]
    private static partial Regex Copy();
}
