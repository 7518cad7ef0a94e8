using Hangfire;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Data;

namespace PerfService.Background;

/// <summary>
/// Summarises the results of runs older than <see cref="RetentionOptions.SampleDays"/>: their samples are removed,
/// after filling any summary column the harness left empty from them, and the run is marked
/// (<c>runs.samples_summarised_at</c>) so the next pass never reads it again. Samples are about half of a result's
/// bytes (20 doubles: 184 of ~340 bytes of heap), so this is what keeps years of history affordable. One
/// transaction per batch of runs; what it removed is logged.
/// </summary>
[DisableConcurrentExecution(timeoutInSeconds: 600)]
public sealed class SampleRetentionJob(
    PerfDbContext db,
    IOptions<RetentionOptions> options,
    TimeProvider time,
    ILogger<SampleRetentionJob> logger
)
{
    public async Task<SampleRetentionSummary> RunAsync(CancellationToken ct)
    {
        var o = options.Value;
        if (o.SampleDays <= 0)
            return new SampleRetentionSummary(0, 0, 0);
        var cutoff = time.GetUtcNow().AddDays(-o.SampleDays);
        long runs = 0,
            results = 0,
            samples = 0;
        while (!ct.IsCancellationRequested)
        {
            await using var tx = await db.Database.BeginTransactionAsync(ct);
            // One statement per batch: pick the oldest unsummarised runs (partial index on runs.created_at), fill
            // missing summary columns from the samples, drop the samples, mark the runs. Results are found by run_id
            // (the unique index).
            var batch = (
                await db
                    .Database.SqlQuery<SampleRetentionSummary>(
                        $"""
                        WITH batch AS (
                            SELECT id FROM runs WHERE samples_summarised_at IS NULL AND created_at < {cutoff}
                            ORDER BY created_at, id LIMIT {o.SampleBatchRuns} FOR UPDATE SKIP LOCKED
                        ), marked AS (
                            UPDATE runs SET samples_summarised_at = {time.GetUtcNow()}
                            WHERE id IN (SELECT id FROM batch) RETURNING id
                        ), summarised AS (
                            UPDATE results r
                            SET mean = coalesce(r.mean, s.mean), median = coalesce(r.median, s.median),
                                std_dev = coalesce(r.std_dev, s.std_dev), min = coalesce(r.min, s.min), max = coalesce(r.max, s.max),
                                samples = NULL
                            FROM results o
                            CROSS JOIN LATERAL (
                                SELECT avg(x) AS mean, percentile_cont(0.5) WITHIN GROUP (ORDER BY x) AS median,
                                       stddev_samp(x) AS std_dev, min(x) AS min, max(x) AS max
                                FROM unnest(o.samples) x) s
                            WHERE o.id = r.id AND r.run_id IN (SELECT id FROM marked) AND o.samples IS NOT NULL
                            RETURNING cardinality(o.samples) AS n
                        )
                        SELECT (SELECT count(*) FROM marked) AS runs, count(*) AS results, coalesce(sum(n), 0)::bigint AS samples
                        FROM summarised
                        """
                    )
                    .ToListAsync(ct)
            ).Single();
            if (batch.Runs == 0)
                break;
            runs += batch.Runs;
            results += batch.Results;
            samples += batch.Samples;
            await tx.CommitAsync(ct);
        }
        if (runs > 0)
            logger.LogInformation(
                "Sample retention: summarised {Runs} runs older than {Days} days, removed {Samples} samples from {Results} results",
                runs,
                o.SampleDays,
                samples,
                results
            );
        return new SampleRetentionSummary(runs, results, samples);
    }
}

/// <summary>What one pass of <see cref="SampleRetentionJob"/> did.</summary>
public sealed record SampleRetentionSummary(long Runs, long Results, long Samples);
