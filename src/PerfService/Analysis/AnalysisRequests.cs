using Microsoft.EntityFrameworkCore;
using PerfService.Core.Contracts;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.Analysis;

/// <summary>
/// The writes around <c>analysis_queue</c> outside a batch: a stored run joins it (waking the consumers), a failed
/// batch marks its runs, a run that fails alone records its error and is parked at its last attempt.
/// </summary>
public static class AnalysisRequests
{
    /// <summary>Consumers LISTEN here; every queued run sends one NOTIFY.</summary>
    public const string Channel = "perf_analysis";

    /// <summary>Puts a stored run in the queue, with the trace context of the ingest storing it. Also for a run queued
    /// before (a retried post): analysis is idempotent.</summary>
    public static Task EnqueueAsync(PerfDbContext db, long runId, CancellationToken ct) =>
        db.Database.ExecuteSqlAsync(
            $"""
            INSERT INTO analysis_queue (run_id, queued_at, failed_batches, attempts, trace_parent)
            VALUES ({runId}, now(), 0, 0, {System.Diagnostics.Activity.Current?.Id}) ON CONFLICT (run_id) DO NOTHING;
            SELECT pg_notify({Channel}, '')
            """,
            ct
        );

    /// <summary>Waiting runs a batch leaves alone (see <see cref="AnalysisBatch.ClaimAsync"/>), oldest first; not
    /// locked:
    /// each is claimed when analysed.</summary>
    public static Task<List<long>> AloneAsync(PerfDbContext db, int limit, CancellationToken ct) =>
        db
            .Database.SqlQuery<long>(
                $"""
                SELECT q.run_id AS "Value" FROM analysis_queue q JOIN runs r ON r.id = q.run_id
                WHERE q.parked_at IS NULL
                  AND (q.failed_batches > 0 OR (r.pull_request IS NOT NULL AND r.job_id IS NULL AND r.role = {RunRole.Head.Name()}))
                ORDER BY q.run_id
                LIMIT {limit}
                """
            )
            .ToListAsync(ct);

    public static Task MarkBatchFailedAsync(PerfDbContext db, IReadOnlyList<long> runIds, CancellationToken ct) =>
        db
            .AnalysisQueue.Where(q => runIds.Contains(q.RunId))
            .ExecuteUpdateAsync(s => s.SetProperty(q => q.FailedBatches, q => q.FailedBatches + 1), ct);

    /// <summary>Puts a parked run back in the queue with its attempts reset, to be analysed alone (as after a failed
    /// batch), and wakes the consumers; false when the run is not parked (analysed, still being tried, or never
    /// queued).
    /// For after the cause is fixed: an upgrade, a repaired row.</summary>
    public static async Task<bool> RetryParkedAsync(PerfDbContext db, long runId, CancellationToken ct)
    {
        var retried = await db
            .Database.SqlQuery<long>(
                $"""
                UPDATE analysis_queue SET parked_at = NULL, attempts = 0, failed_batches = greatest(failed_batches, 1)
                WHERE run_id = {runId} AND parked_at IS NOT NULL
                RETURNING run_id AS "Value"
                """
            )
            .ToListAsync(ct);
        if (retried.Count == 0)
            return false;
        await db.Database.ExecuteSqlAsync($"SELECT pg_notify({Channel}, '')", ct);
        return true;
    }

    /// <summary>Counts a failed analysis of the run alone and keeps its error; true when that was its last attempt and
    /// the run is parked.</summary>
    public static async Task<bool> RecordFailureAsync(
        PerfDbContext db,
        long runId,
        Exception error,
        int attempts,
        CancellationToken ct
    )
    {
        var text = $"{error.GetType().Name}: {error.Message}";
        if (text.Length > AnalysisRequest.ErrorLength)
            text = text[..AnalysisRequest.ErrorLength];
        var parked = await db
            .Database.SqlQuery<bool>(
                $"""
                UPDATE analysis_queue SET attempts = attempts + 1, failed_batches = greatest(failed_batches, 1), error = {text},
                       parked_at = CASE WHEN attempts + 1 >= {attempts} THEN now() END
                WHERE run_id = {runId}
                RETURNING parked_at IS NOT NULL AS "Value"
                """
            )
            .ToListAsync(ct);
        return parked is [true];
    }
}
