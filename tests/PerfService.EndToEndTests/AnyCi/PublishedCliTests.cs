namespace PerfService.EndToEndTests.AnyCi;

/// <summary>The self-contained executable from deploy/publish-cli.sh. Publishing takes about a minute per platform, so no
/// test makes it: run `deploy/publish-cli.sh linux-x64` first, or this test is skipped and says so.</summary>
public class PublishedCliTests
{
    public static string Binary => Path.Combine(SuiteRepository.Repo(), "artifacts", "cli", "linux-x64", "perf");

    [PublishedCliFact]
    public async Task The_single_file_executable_parses_a_fixture_without_dotnet_and_agrees_with_the_built_CLI()
    {
        var fixture = Path.Combine(SuiteRepository.Repo(), "tests", "fixtures", "gobench", "goperf-suffixarray-benchmem-count10.txt");
        var work = Directory.CreateTempSubdirectory("perf-cli-").FullName;
        try
        {
            // A PATH with nothing on it and no DOTNET_ROOT: the executable must carry its runtime.
            var bare = new Dictionary<string, string> { ["PATH"] = work, ["DOTNET_ROOT"] = "", ["HOME"] = work };
            var published = await Shell.RunAsync(Binary, ["parse", fixture], work, bare, TimeSpan.FromMinutes(1));
            Assert.True(published.ExitCode == 0, published.ToString());
            var built = await Shell.RunAsync("dotnet", [Path.Combine(AppContext.BaseDirectory, "perf-agent.dll"), "parse", fixture], work,
                new Dictionary<string, string>(), TimeSpan.FromMinutes(1));
            Assert.True(built.ExitCode == 0, built.ToString());
            Assert.Contains("\"benchmark\"", published.Stdout);
            Assert.Equal(built.Stdout, published.Stdout);
        }
        finally
        {
            Directory.Delete(work, recursive: true);
        }
    }
}

/// <summary>Skips, naming the command to run, when the published executable is absent or stale.</summary>
public sealed class PublishedCliFactAttribute : FactAttribute
{
    public PublishedCliFactAttribute()
    {
        if (!File.Exists(PublishedCliTests.Binary))
            Skip = "artifacts/cli/linux-x64/perf is absent: run deploy/publish-cli.sh linux-x64 (about a minute; not part of ./perf test)";
        // An executable published before the last change to the sources would be judged against a newer CLI.
        else if (Directory.EnumerateFiles(Path.Combine(SuiteRepository.Repo(), "src"), "*.cs", SearchOption.AllDirectories)
                     .Max(File.GetLastWriteTimeUtc) > File.GetLastWriteTimeUtc(PublishedCliTests.Binary))
            Skip = "artifacts/cli/linux-x64/perf is older than the sources: run deploy/publish-cli.sh linux-x64 again";
    }
}
