using System.Globalization;

namespace PerfService.LoadTest;

/// <summary>One capacity goal, what this run measured for it, and whether it was met (null: not measured).</summary>
public sealed record Goal(string What, string Measured, bool? Met)
{
    public string Line() => $"  {(Met switch { true => "met    ", false => "NOT MET", null => "n/a    " })}  {What}: {Measured}";
}

/// <summary>
/// The service's capacity goals on a quiet 2-core machine: with both roles in one process at 50 agents × 60 s, or the
/// roles as two processes at 100 agents × 60 s. Checked against whatever load was run; the line above them says
/// which load the goals were set for.
/// </summary>
public static class Goals
{
    public const string OverviewKind = "read /projects/{slug}/overview";
    public const string SeriesKind = "read /projects/{slug}/series";

    public static string Heading(bool split) => split
        ? "goals (web and background as two processes; set for 100 agents × 60 s on a quiet 2-core machine):"
        : "goals (one process with both roles; set for 50 agents × 60 s on a quiet 2-core machine):";

    public static IReadOnlyList<Goal> Check(bool split, Capacity c, AnalysisLag lag, IReadOnlyList<Summary> rows, long errors, bool dataOk)
    {
        var ingest = rows.FirstOrDefault(r => r.Kind == "ingest (all)") ?? rows.FirstOrDefault(r => r.Kind == "ingest");
        var goals = new List<Goal>();
        if (!split)
            goals.Add(new("analysed/stored during the load ≥ 1.00",
                $"{F(c.AnalysedPerStored, "0.000")} (waiting: {lag.WaitingAtStart} at the start, {lag.WaitingAtStop} at the stop)", c.AnalysedPerStored >= 1.0));
        var lagLimit = split ? 60 : 30;
        goals.Add(new($"analysis lag p99 < {lagLimit} s", lag.P99Seconds is { } p ? $"{F(p, "0.0")} s" : "n/a", lag.P99Seconds is { } q ? q < lagLimit : null));
        if (!split) goals.Add(new("≤ 50 runs waiting when the load stopped", lag.WaitingAtStop.ToString(CultureInfo.InvariantCulture), lag.WaitingAtStop <= 50));
        goals.Add(new("ingest p99 < 500 ms", ingest is null ? "n/a" : $"{F(ingest.P99Ms, "0")} ms", ingest is null ? null : ingest.P99Ms < 500));
        goals.Add(split
            ? new("nothing lost", dataOk ? "every acknowledged run stored whole, once" : "LOST OR DAMAGED DATA", dataOk)
            : new("0 errors, nothing lost", $"{errors} errors; {(dataOk ? "every acknowledged run stored whole, once" : "LOST OR DAMAGED DATA")}", errors == 0 && dataOk));
        var cpu = c.CpuPerAnalysed / c.CpuPerIngested;
        goals.Add(new("CPU per analysed run ≤ ⅓ of CPU per ingested run", cpu is { } r ? $"{F(r, "0.00")}×" : "n/a", cpu is { } s ? s <= 1.0 / 3 : null));
        foreach (var (kind, name) in new[] { (OverviewKind, "overview"), (SeriesKind, "series") })
        {
            var read = rows.FirstOrDefault(r => r.Kind == kind);
            goals.Add(new($"{name} read p99 < 250 ms", read is null ? "n/a (not read)" : $"{F(read.P99Ms, "0")} ms", read is null ? null : read.P99Ms < 250));
        }
        return goals;
    }

    private static string F(double? value, string format) => value is { } v ? v.ToString(format, CultureInfo.InvariantCulture) : "n/a";
}
