using System.Globalization;
using PerfService.Agents.Processes;
using PerfService.Agents.Suites;
using PerfService.Core.Parsing;
using PerfService.Core.Profiles;
using PerfService.Core.Suites;

namespace PerfService.Agents.Profiling;

/// <summary>
/// criterion under <c>perf record -g</c>: the bench executable of <c>cargo bench --bench B</c>, given
/// <c>--bench --profile-time N '^name$'</c>, iterates the one benchmark for N seconds with no analysis; then
/// <c>perf script</c> prints the samples with the symbols of the binaries on this machine and
/// <see cref="PerfScriptFolder"/> folds them. The bench is built first, so the profile holds the benchmark and not
/// rustc, with frame pointers (perf's -g walks them; release builds omit them) into a target folder of its own
/// ("profiling" under the usual one), so the measuring build's cache stays as it was. cpu-clock is a software event:
/// it samples on-CPU time where a VM or container offers no hardware counters.
/// </summary>
/// <param name="paranoidFile">Where the kernel's perf_event_paranoid level is read (<see cref="PerfAccess"/>).</param>
public sealed class CriterionProfiler(ProcessRunner processes, string paranoidFile = PerfAccess.ParanoidFile)
    : SuiteRunner(processes)
{
    public const string FileName = "perf.folded";
    public const int Seconds = 5;

    // The bench executable is run under perf itself when cargo names exactly one (it does with --bench B): cargo and
    // rustup's proxy would otherwise be a third of the samples. Without a single target, cargo runs them all.
    private const string Script = """
        set -e
        data="$1"; out="$2"; seconds="$3"; filter="$4"; shift 4
        cargo bench --no-run --message-format=json-render-diagnostics "$@" > "$data.json"
        exe=$(sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' "$data.json")
        if [ -n "$exe" ] && [ "$(printf '%s\n' "$exe" | wc -l)" -eq 1 ]; then
          perf record -e cpu-clock -F 999 -g -o "$data" -- "$exe" --bench --profile-time "$seconds" "$filter"
        else
          perf record -e cpu-clock -F 999 -g -o "$data" -- cargo bench "$@" -- --profile-time "$seconds" "$filter"
        fi
        perf script -i "$data" > "$out"
        """;

    public override Harness Harness => Harness.Criterion;
    protected override string Format => ProfileFormat.Folded.Name();

    private static string Data(SuiteRun run) => Path.Combine(run.ScratchDir, "perf.data");

    private static string Text(SuiteRun run) => Path.Combine(run.ScratchDir, "perf.txt");

    protected override void Prepare(SuiteRun run)
    {
        if (
            PerfAccess.Refusal(PerfAccess.ReadParanoid(paranoidFile), run.Isolation, Environment.IsPrivilegedProcess) is
            { } refusal
        )
            throw new InvalidOperationException(refusal);
        Directory.CreateDirectory(run.ScratchDir);
        foreach (var old in new[] { Data(run), Data(run) + ".json", Text(run) })
            File.Delete(old);
    }

    protected override ProcessSpec Command(SuiteRun run)
    {
        var name = GoProfiler.Profiled(run);
        string[] bench = BenchTarget(run.Folder, name) is { } target ? ["--bench", target] : [];
        if (bench.Length == 0)
            run.Log($"warning: no single file under benches/ names the group of {name}; profiling every bench target");
        var flags = Setting(run, "RUSTFLAGS");
        return new ProcessSpec(
            "/bin/sh",
            [
                "-c",
                Script,
                "criterion-profile",
                Data(run),
                Text(run),
                Seconds.ToString(CultureInfo.InvariantCulture),
                BenchmarkPatterns.Criterion(name),
                .. bench,
            ],
            run.Folder
        )
        {
            Environment = new Dictionary<string, string?>
            {
                ["RUSTFLAGS"] = flags is null ? "-C force-frame-pointers=yes" : flags + " -C force-frame-pointers=yes",
                ["CARGO_TARGET_DIR"] = Path.Combine(
                    Setting(run, "CARGO_TARGET_DIR") ?? Path.Combine(run.Folder, "target"),
                    "profiling"
                ),
            },
        };
    }

    /// <summary>A variable as the harness would see it: the suite's own, else the agent's.</summary>
    private static string? Setting(SuiteRun run, string name) =>
        run.Suite.Env.GetValueOrDefault(name) is { Length: > 0 } own ? own
        : run.Environment.GetValueOrDefault(name) is { Length: > 0 } agent ? agent
        : null;

    protected override IReadOnlyList<Artifact> Collect(SuiteRun run, ProcessResult result)
    {
        if (!File.Exists(Text(run)))
            return [];
        FoldedStacks folded;
        using (var reader = File.OpenText(Text(run)))
            folded = PerfScriptFolder.Fold(reader, ProfileLimits.Default);
        var text = new StringWriter();
        folded.Write(text);
        return [new Artifact(FileName, System.Text.Encoding.UTF8.GetBytes(text.ToString()))];
    }

    /// <summary>The bench target whose source names the benchmark's group ("context_switch" of
    /// "context_switch/raw_fiber_switch"), in cargo's default layout: benches/NAME.rs or benches/NAME/main.rs.
    /// Running every target instead would also run those that ignore criterion's arguments.</summary>
    internal static string? BenchTarget(string folder, string name)
    {
        var benches = Path.Combine(folder, "benches");
        if (!Directory.Exists(benches))
            return null;
        var group = $"\"{name.Split('/')[0]}\"";
        var sources = Directory
            .EnumerateFiles(benches, "*.rs")
            .Select(f => (Target: Path.GetFileNameWithoutExtension(f), File: f))
            .Concat(
                Directory
                    .EnumerateDirectories(benches)
                    .Select(d => (Target: Path.GetFileName(d), File: Path.Combine(d, "main.rs")))
            )
            .Where(s => File.Exists(s.File) && File.ReadAllText(s.File).Contains(group, StringComparison.Ordinal))
            .ToList();
        return sources.Count == 1 ? sources[0].Target : null;
    }
}
