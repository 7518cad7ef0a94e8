namespace PerfService.LoadTest;

/// <summary>The summary table, the verification and the verdict; returns the exit code.</summary>
public static class Report
{
    public static string Group(string kind) =>
        kind.StartsWith("ingest", StringComparison.Ordinal) ? "ingest" : kind.StartsWith("read", StringComparison.Ordinal) ? "read" : "other";

    public static int Print(TextWriter o, LoadOptions options, IReadOnlyList<Summary> rows, Verification v, TimeSpan elapsed, Ledger ledger, AnalysisLag? lag = null,
        Capacity? capacity = null, MachineUse? machine = null)
    {
        var created = ledger.Runs.Where(r => r.Created > 0 && !r.Warmup).ToList();
        o.WriteLine();
        o.WriteLine($"PerfService load test — {options.Agents} agents, {options.Readers} readers, {options.Seconds} s of load ({elapsed.TotalSeconds:0.0} s with drain), " +
            $"{Environment.ProcessorCount} CPUs shared by service, PostgreSQL and this client; load average {LoadAverage.Start} at the start, {LoadAverage.Now()} at the end");
        o.WriteLine();
        const string header = "{0,-34} {1,9} {2,9} {3,7} {4,8} {5,8} {6,8} {7,8} {8,8} {9,8}";
        o.WriteLine(header, "kind", "requests", "ok", "errors", "req/s", "mean ms", "p50 ms", "p95 ms", "p99 ms", "max ms");
        o.WriteLine(new string('-', 122));
        string? group = null;
        foreach (var r in rows.OrderBy(r => Group(r.Kind.Replace(" (all)", "", StringComparison.Ordinal)), StringComparer.Ordinal)
                     .ThenBy(r => r.Kind.EndsWith("(all)", StringComparison.Ordinal)).ThenBy(r => r.Kind, StringComparer.Ordinal))
        {
            var g = Group(r.Kind);
            if (group is not null && g != group) o.WriteLine();
            group = g;
            o.WriteLine(header, r.Kind, r.Requests, r.Ok, r.ErrorCount, r.PerSecond.ToString("0.0"), r.MeanMs.ToString("0.0"),
                r.P50Ms.ToString("0.0"), r.P95Ms.ToString("0.0"), r.P99Ms.ToString("0.0"), r.MaxMs.ToString("0.0"));
        }
        o.WriteLine(new string('-', 122));
        var results = created.Sum(r => (long)r.Payload.ExpectedResults);
        o.WriteLine($"stored: {created.Count} runs, {results} results ({results * options.Samples} samples) = {created.Count / elapsed.TotalSeconds:0.0} runs/s, " +
            $"{results / elapsed.TotalSeconds:0} results/s");

        var errors = rows.Where(r => !r.Kind.EndsWith("(all)", StringComparison.Ordinal)).SelectMany(r => r.Errors)
            .GroupBy(e => e.Key).Select(g => $"{g.Key} ×{g.Sum(e => e.Value)}").ToList();
        if (errors.Count > 0)
        {
            o.WriteLine("errors by kind: " + string.Join(", ", errors));
            foreach (var (kind, body) in Samples.All) o.WriteLine($"  first {kind}: {body}");
        }
        foreach (var (kind, what) in Problems.All.Take(20)) o.WriteLine($"contradiction ({kind}): {what}");
        var serverErrors = ServerErrors.All;
        if (serverErrors.Count > 0)
        {
            o.WriteLine($"server errors (5xx, warm-up included): {serverErrors.Count}, each one fails the run:");
            foreach (var e in serverErrors.Take(20)) o.WriteLine($"  {e.At:HH:mm:ss.fff} {e.Status} {e.Kind}: {e.Request}: {e.Body}");
            if (serverErrors.Count > 20) o.WriteLine($"  … and {serverErrors.Count - 20} more");
        }

        o.WriteLine();
        o.WriteLine($"verification (database): {v.Planned} runs planned, {v.Acknowledged} acknowledged; {v.Stored} stored " +
            $"({v.StoredWithoutAck} whole but unacknowledged, their answer lost); missing {v.Missing}, partial {v.Partial}, " +
            $"stored twice {v.Doubled}, wrong id {v.WrongRunId}, not posted by us {v.Unknown}");
        o.WriteLine($"verification (API): {v.ApiChecked} runs read back through GET /api/v1/runs/{{id}}, {v.ApiMismatches} differ");
        foreach (var f in v.Findings) o.WriteLine($"  ! {f}");
        if (v.Background.Count > 0)
            o.WriteLine("background jobs (Hangfire, by state at the end; analysis is not among them): " + string.Join(", ", v.Background.Select(b => $"{b.Key} {b.Value}"))
                + (v.AnalysisMeanMs is { } mean ? $"; a finished job took {mean:0} ms on average" : ""));
        if (lag is not null) o.WriteLine(lag.Line());
        if (capacity is not null)
            foreach (var line in capacity.Lines()) o.WriteLine(line);
        if (machine is not null)
            foreach (var line in machine.Lines()) o.WriteLine(line);

        var ingest = rows.FirstOrDefault(r => r.Kind == "ingest (all)") ?? rows.FirstOrDefault(r => r.Kind == "ingest");
        var read = rows.FirstOrDefault(r => r.Kind == "read (all)") ?? rows.FirstOrDefault(r => Group(r.Kind) == "read");
        var errorCount = rows.Where(r => !r.Kind.EndsWith("(all)", StringComparison.Ordinal)).Sum(r => r.ErrorCount) + Problems.All.Count;
        var slo = options.SloP99Milliseconds;
        string Verdict(Summary? s) => s is null ? "n/a" : $"{s.P99Ms:0} ms {(s.P99Ms < slo ? "✓" : "✗")}";
        o.WriteLine();
        o.WriteLine($"p99 target < {slo:0} ms: ingest {Verdict(ingest)}, reads {Verdict(read)}; errors: {errorCount}; server errors (5xx): {serverErrors.Count}; " +
            $"data: {(v.Ok ? "every acknowledged run stored whole, exactly once" : "LOST OR DAMAGED DATA")}");
        if (lag is not null && capacity is not null)
        {
            var split = options.Processes.Any(p => p.Role == "background");
            o.WriteLine(Goals.Heading(split) + $" this run: {options.Agents} agents × {options.Seconds} s, load average {LoadAverage.Start} at the start");
            foreach (var goal in Goals.Check(split, capacity, lag, rows, errorCount, v.Ok)) o.WriteLine(goal.Line());
        }
        var ok = errorCount == 0 && serverErrors.Count == 0 && v.Ok;
        o.WriteLine(ok ? "RESULT: PASS" : "RESULT: FAIL");
        return ok ? 0 : 1;
    }
}

/// <summary>/proc/loadavg's 1-minute figure: what else the machine was doing.</summary>
public static class LoadAverage
{
    public static string Start { get; } = Now();

    public static string Now()
    {
        try
        {
            return File.ReadAllText("/proc/loadavg").Split(' ')[0];
        }
        catch (IOException)
        {
            return "?";
        }
    }
}
