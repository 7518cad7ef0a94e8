using System.Text.Json;
using System.Text.Json.Nodes;
using PerfService.Agents.Processes;

namespace PerfService.Demo;

/// <summary>Creates the demo's git repository from benches/: calibration commits, main's history and the pull request's branch.</summary>
public sealed class DemoRepository(ProcessRunner processes, string path, Action<string> log)
{
    // PerfService.Benchmarks measures this repository itself; the demo repository gets only the users' kind of suites.
    private static readonly string[] Skip = ["target", "bin", "obj", "BenchmarkDotNet.Artifacts", "node_modules", ".git", "PerfService.Benchmarks"];
    private static readonly JsonSerializerOptions Indented = new() { WriteIndented = true };

    public const string CalibrationBranch = "demo-calibration";
    private JsonObject? _manifest;

    public string Path { get; } = path;
    private string ManifestPath => System.IO.Path.Combine(Path, "perf.json");
    private JsonObject Manifest => _manifest ?? throw new InvalidOperationException("InitAsync first");

    public sealed record History(IReadOnlyList<(string Sha, DateTimeOffset At)> Main, string Final, string PullRequestHead);

    /// <summary>The repository with the suites copied from benches/; its first branch holds the calibration commits.</summary>
    public async Task InitAsync(string benches, CancellationToken ct)
    {
        if (Directory.Exists(Path)) Directory.Delete(Path, recursive: true);
        Directory.CreateDirectory(Path);
        Copy(benches, Path);
        // A .NET repository's root, with the SDK the suites build with. It is also where BenchmarkDotNet's out-of-process
        // jobs (the profiler's) look for the project to build: without it they would look from this checkout's root
        // (the demo runs inside it), find every agent's copy of the suite and give up.
        var sdk = System.IO.Path.Combine(benches, "..", "global.json");
        if (File.Exists(sdk)) File.Copy(sdk, System.IO.Path.Combine(Path, "global.json"));
        _manifest = JsonNode.Parse(File.ReadAllText(ManifestPath), documentOptions: new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip })!.AsObject();
        await GitAsync(ct, "init", "-q", "-b", CalibrationBranch);
        await GitAsync(ct, "config", "user.email", "demo@perfservice.local");
        await GitAsync(ct, "config", "user.name", "PerfService demo");
    }

    /// <summary>A commit on the calibration branch whose history suite runs at <paramref name="benchtime"/>.</summary>
    public async Task<string> CalibrationCommitAsync(string benchtime, CancellationToken ct)
    {
        DemoScenario.TuneManifest(Manifest, benchtime);
        Save(ManifestPath, Manifest);
        var sha = await CommitAsync($"Calibration at -benchtime={benchtime}", DateTimeOffset.UtcNow, ct);
        log($"  {CalibrationBranch}: {sha[..10]} the history's benchmarks at -benchtime={benchtime}");
        return sha;
    }

    /// <summary>Main's history (a branch of its own, not on top of the calibration) and the pull request's branch.</summary>
    public async Task<History> CreateHistoryAsync(DemoScenario scenario, CancellationToken ct)
    {
        await GitAsync(ct, "checkout", "-q", "--orphan", "main");
        var manifest = Manifest;
        var manifestPath = ManifestPath;
        DemoScenario.TuneManifest(manifest, scenario.Plan.Benchtime);
        Save(manifestPath, manifest);
        var start = DateTimeOffset.UtcNow.AddHours(-scenario.MainCommits - 2);
        var main = new List<(string, DateTimeOffset)>();
        for (var i = 0; i < scenario.MainCommits; i++)
        {
            var when = start.AddHours(i);
            string message;
            if (i == scenario.PlantedAt)
            {
                DemoScenario.Plant(manifest, "eventstore", scenario.MainSlowdown);
                Save(manifestPath, manifest);
                message = $"Index events by tag on read (plants {scenario.MainSlowdown})";
            }
            else
            {
                File.AppendAllText(System.IO.Path.Combine(Path, "CHANGELOG.md"), $"- change {i + 1}\n");
                message = i == 0 ? "Benchmark suites" : $"Change {i + 1}";
            }
            main.Add((await CommitAsync(message, when, ct), when));
            log($"  main {i + 1,2}/{scenario.MainCommits}: {main[^1].Item1[..10]} {message}");
        }

        DemoScenario.Plant(manifest, "rivulet", scenario.TargetSlowdown);
        Save(manifestPath, manifest);
        var final = await CommitAsync($"Retry by default (plants {scenario.TargetSlowdown})", start.AddHours(scenario.MainCommits), ct);
        log($"  main final: {final[..10]} retry by default");

        await GitAsync(ct, "checkout", "-q", "-b", "feature/projections");
        var projections = manifest["suites"]!.AsArray().OfType<JsonObject>().First(s => (string?)s["name"] == "eventstore");
        projections["env"] = new JsonObject { ["PERF_SLOWDOWN"] = $"{scenario.MainSlowdown},{scenario.PullRequestSlowdown}" };
        Save(manifestPath, manifest);
        var head = await CommitAsync($"Rebuild projections eagerly (plants {scenario.PullRequestSlowdown})", start.AddHours(scenario.MainCommits + 1), ct);
        await GitAsync(ct, "checkout", "-q", "main");
        log($"  pull request #{DemoScenario.PullRequest}: {head[..10]} on feature/projections");
        return new History(main, final, head);
    }

    private async Task<string> CommitAsync(string message, DateTimeOffset when, CancellationToken ct)
    {
        await GitAsync(ct, "add", "-A");
        var date = when.ToString("yyyy-MM-ddTHH:mm:sszzz");
        var env = new Dictionary<string, string?> { ["GIT_AUTHOR_DATE"] = date, ["GIT_COMMITTER_DATE"] = date };
        await RunAsync(new ProcessSpec("git", ["commit", "-q", "-m", message], Path) { Environment = env }, ct);
        return (await RunAsync(new ProcessSpec("git", ["rev-parse", "HEAD"], Path) { CaptureStdout = true }, ct)).Stdout.Trim();
    }

    private Task GitAsync(CancellationToken ct, params string[] args) => RunAsync(new ProcessSpec("git", args, Path), ct);

    private async Task<ProcessResult> RunAsync(ProcessSpec spec, CancellationToken ct)
    {
        var result = await processes.RunAsync(spec with { Timeout = TimeSpan.FromMinutes(2) }, null, ct);
        if (!result.Succeeded) throw new InvalidOperationException($"{spec.Display} failed: {string.Join('\n', result.Tail)}");
        return result;
    }

    private static void Save(string path, JsonObject manifest) => File.WriteAllText(path, manifest.ToJsonString(Indented) + "\n");

    private static void Copy(string from, string to)
    {
        foreach (var dir in Directory.EnumerateDirectories(from))
        {
            var name = System.IO.Path.GetFileName(dir);
            if (Skip.Contains(name)) continue;
            Directory.CreateDirectory(System.IO.Path.Combine(to, name));
            Copy(dir, System.IO.Path.Combine(to, name));
        }
        foreach (var file in Directory.EnumerateFiles(from))
            File.Copy(file, System.IO.Path.Combine(to, System.IO.Path.GetFileName(file)));
    }
}
