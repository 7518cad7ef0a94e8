using System.ComponentModel.DataAnnotations;

namespace PerfService.Background;

/// <summary>Which roles a process plays: the web role serves the API, dashboard and agents; the background role runs
/// the analysis consumers and the Hangfire server (comparisons, publishing, recurring jobs). One process may play both
/// (the default).</summary>
[Flags]
public enum ServiceRoles
{
    Web = 1,
    Background = 2,
    Both = Web | Background,
}

/// <summary>
/// <c>Background:*</c>: the roles this process plays, its Hangfire workers, and how many waiting runs one analysis
/// takes at once. Validated at start, so a typo stops the process instead of silently running without workers.
/// </summary>
public sealed class BackgroundOptions : IValidatableObject
{
    public const string Section = "Background";

    /// <summary>"web", "background" or "both" (also "web,background"): a replica with only the background role serves
    /// nothing but health and metrics; one with only the web role runs no background jobs (it still queues
    /// them).</summary>
    public string Roles { get; set; } = "both";

    /// <summary>
    /// Hangfire workers of this process; null: half the cores, at least one. Analysis is CPU- and database-bound, and
    /// on
    /// a 2-core machine a second worker only competed with request handling (load test, same machine: ingest p99
    /// 830 → 425 ms with one worker, and as many analyses finished, each faster).
    /// </summary>
    [Range(1, 256)]
    public int? Workers { get; set; }

    /// <summary>Waiting main-branch runs one analysis takes together (1: each run alone). Several runs of one series
    /// then cost one update of it, and their writes go in one transaction. 256: at the 50-agent load test on 2 cores,
    /// 32 left 2,039 runs waiting when the load stopped (lag p99 94 s) and 256 left 1,319 (p99 43 s), since a series
    /// touched by many late runs replays once per batch; 1,000 did no better than 256 (p99 48 s).</summary>
    [Range(1, 1000)]
    public int AnalysisBatchRuns { get; set; } = 256;

    /// <summary>Analysis consumers this process runs (background role only), each draining <c>analysis_queue</c> one
    /// batch
    /// at a time. One by default: a batch already feeds its series on <see cref="AnalysisThreads"/> threads, and where
    /// requests share the process a second consumer would only take cores from them.</summary>
    [Range(1, 64)]
    public int AnalysisConsumers { get; set; } = 1;

    /// <summary>Failed analyses of a run alone before it is parked (kept with its error, shown on the Service page, no
    /// longer taken), so one run that cannot be analysed never holds up the runs behind it.</summary>
    [Range(1, 100)]
    public int AnalysisAttempts { get; set; } = 3;

    /// <summary>
    /// Threads one analysis feeds change-point series on at once; null: one in a process that also serves requests,
    /// every core in one with only the background role. The detector is pure CPU and its series are independent. Since
    /// the noise estimate follows each series' window, one thread keeps pace with the 50-agent load test on 2 cores and
    /// leaves the other to requests (every goal of the one-process load test met; with every core, series reads p99
    /// 269–360 ms against a 250 ms goal; docs/measurements/2026-11-27-analysis-speed.md). A process that yields to slow
    /// uploads drops to one thread meanwhile (<see cref="YieldAboveIngestMs"/>); one that is behind
    /// (<see cref="YieldUntilWaitingRuns"/>) takes every core unless this is set (<see cref="AnalysisThreadCountBehind"/>).
    /// </summary>
    [Range(1, 256)]
    public int? AnalysisThreads { get; set; }

    /// <summary>Series whose detector state this process keeps in memory after writing it, with the noise estimate that
    /// follows it (<see cref="Analysis.SeriesStateCache"/>): a series found there skips decoding its state and moves its
    /// noise estimate by one point instead of estimating it afresh. About 15 KB a series. 0: keep none.</summary>
    [Range(0, 10_000_000)]
    public int AnalysisCachedSeries { get; set; } = 8192;

    /// <summary>Where this process also serves uploads: while the slowest tenth of the last 5 s of uploads took longer
    /// than this (parse and store), analysis pauses between batches and feeds the detector on one thread, so requests
    /// keep their latency when analysis is behind (<see cref="Analysis.AnalysisYield"/>). 0: never yield.</summary>
    [Range(0, 60_000)]
    public int YieldAboveIngestMs { get; set; } = 250;

    /// <summary>Analysis yields only while it keeps pace: once a batch took this many runs (that many were waiting),
    /// the next follows at once on every thread, whatever uploads take. 0: yield however many runs wait.</summary>
    [Range(0, 100_000)]
    public int YieldUntilWaitingRuns { get; set; } = 50;

    /// <summary>The longest pause between two analysis batches while yielding (the pause doubles from 250 ms up to it):
    /// bounds how far yielding can slow analysis down, and the runs one pause leaves waiting (at 46 runs/s, a 2 s pause
    /// left 95 waiting when a load test stopped; 500 ms, 11).</summary>
    [Range(250, 60_000)]
    public int YieldMaxPauseMs { get; set; } = 500;

    public int AnalysisThreadCount => AnalysisThreads ?? (Runs(ServiceRoles.Web) ? 1 : Environment.ProcessorCount);

    /// <summary>Detector threads while analysis is behind: every core unless <see cref="AnalysisThreads"/> is set. On a
    /// saturated machine one thread among the requests' got too small a share of the CPU to catch up (a third of the
    /// stored runs analysed during a 50-agent load on a slower 2-core VM; docs/measurements/2026-11-28-tiered-pgo.md).</summary>
    public int AnalysisThreadCountBehind => AnalysisThreads ?? Environment.ProcessorCount;

    public int WorkerCount => Workers ?? HalfTheCores;

    private static int HalfTheCores => Math.Max(1, Environment.ProcessorCount / 2);

    public ServiceRoles ParsedRoles => TryParseRoles(Roles, out var roles) ? roles : ServiceRoles.Both;

    public bool Runs(ServiceRoles role) => (ParsedRoles & role) == role;

    public static bool TryParseRoles(string? text, out ServiceRoles roles)
    {
        roles = 0;
        foreach (var part in (text ?? "").Split([',', '+', ' '], StringSplitOptions.RemoveEmptyEntries))
        {
            if (part.Equals("both", StringComparison.OrdinalIgnoreCase))
                roles |= ServiceRoles.Both;
            else if (part.Equals("web", StringComparison.OrdinalIgnoreCase))
                roles |= ServiceRoles.Web;
            else if (part.Equals("background", StringComparison.OrdinalIgnoreCase))
                roles |= ServiceRoles.Background;
            else
                return false;
        }
        return roles != 0;
    }

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (!TryParseRoles(Roles, out _))
            yield return new ValidationResult(
                $"Background:Roles must be 'web', 'background' or 'both' (got '{Roles}')",
                [nameof(Roles)]
            );
    }
}
