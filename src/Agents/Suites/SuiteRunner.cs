using PerfService.Agents.Processes;
using PerfService.Core.Parsing;
using PerfService.Core.Suites;

namespace PerfService.Agents.Suites;

/// <summary>The shared shape of a harness run: clear old output, run the command (pinned when asked), collect
/// files.</summary>
public abstract class SuiteRunner(ProcessRunner processes) : ISuiteRunner
{
    public abstract Harness Harness { get; }
    protected abstract string Format { get; }

    /// <summary>Remove what an earlier run left, so that old results never pass for new ones.</summary>
    protected virtual void Prepare(SuiteRun run) { }

    protected abstract ProcessSpec Command(SuiteRun run);
    protected abstract IReadOnlyList<Artifact> Collect(SuiteRun run, ProcessResult result);

    public async Task<SuiteOutput> RunAsync(SuiteRun run, CancellationToken ct)
    {
        Prepare(run);
        // A fresh checkout has no folder for them yet (File.Delete throws on a missing folder, not on a missing file).
        foreach (var extra in run.Suite.Outputs.Select(e => ExtraPath(run, e)).Where(File.Exists))
            File.Delete(extra);
        var command = Command(run);
        // The suite's own variables (perf.json "env", e.g. a PERF_SLOWDOWN a commit planted) win over the agent's.
        var environment = new Dictionary<string, string?>(run.Environment);
        foreach (var (key, value) in run.Suite.Env)
            environment[key] = value;
        foreach (var (key, value) in command.Environment)
            environment[key] = value;
        // Isolation wraps the command itself; taskset goes outside, its affinity is inherited by the whole tree.
        var spec = Pin(
            run.Isolation.Wrap(
                command with
                {
                    Environment = environment,
                    Timeout = TimeSpan.FromSeconds(Math.Max(1, run.Suite.TimeoutSeconds)),
                },
                [.. run.Writable, run.ScratchDir]
            ),
            run
        );
        run.Log($"$ {spec.Display}");
        var result = await processes.RunAsync(spec, run.Log, ct);
        if (!result.Succeeded)
            return new SuiteOutput(Format, [], result);
        var files = Collect(run, result);
        var extras = CollectExtras(run);
        // With extra outputs the upload mixes formats (criterion + generic JSON): the service recognises each file.
        return extras.Count == 0
            ? new SuiteOutput(Format, files, result)
            : new SuiteOutput(ResultParsers.Auto, [.. files, .. extras], result);
    }

    private static string ExtraPath(SuiteRun run, string relative)
    {
        var full = Path.GetFullPath(Path.Combine(run.Folder, relative));
        var root = Path.GetFullPath(run.Folder) + Path.DirectorySeparatorChar;
        if (!full.StartsWith(root, StringComparison.Ordinal))
            throw new InvalidOperationException(
                $"suite {run.Suite.Name}: output '{relative}' is outside the suite's folder"
            );
        return full;
    }

    /// <summary>The suite's declared extra outputs that the run wrote, under "outputs/" so that their names never
    /// collide with the harness's own files.</summary>
    private static List<Artifact> CollectExtras(SuiteRun run)
    {
        var extras = new List<Artifact>();
        foreach (var relative in run.Suite.Outputs)
        {
            var path = ExtraPath(run, relative);
            if (File.Exists(path))
                extras.Add(
                    new Artifact("outputs/" + relative.Replace('\\', '/').TrimStart('/'), File.ReadAllBytes(path))
                );
            else
                run.Log($"warning: suite {run.Suite.Name}: declared output '{relative}' was not written");
        }
        return extras;
    }

    private static ProcessSpec Pin(ProcessSpec spec, SuiteRun run)
    {
        if (string.IsNullOrWhiteSpace(run.Cpus))
            return spec;
        run.Environment.TryGetValue("PATH", out var path);
        if (PathLookup.Find("taskset", path) is null)
        {
            run.Log($"warning: --cpus {run.Cpus} ignored: taskset is not on PATH");
            return spec;
        }
        return spec with { FileName = "taskset", Arguments = ["-c", run.Cpus, spec.FileName, .. spec.Arguments] };
    }

    protected static void DeleteDirectory(string path)
    {
        if (Directory.Exists(path))
            Directory.Delete(path, recursive: true);
    }

    /// <summary>Files under <paramref name="root"/> that pass <paramref name="include"/>, with '/'-separated paths
    /// relative to root, in a stable order.</summary>
    protected static IReadOnlyList<Artifact> FilesUnder(string root, Func<string, bool> include)
    {
        if (!Directory.Exists(root))
            return [];
        return Directory
            .EnumerateFiles(root, "*", SearchOption.AllDirectories)
            .Select(f => Path.GetRelativePath(root, f).Replace(Path.DirectorySeparatorChar, '/'))
            .Where(include)
            .Order(StringComparer.Ordinal)
            .Select(rel => new Artifact(rel, File.ReadAllBytes(Path.Combine(root, rel))))
            .ToList();
    }
}
