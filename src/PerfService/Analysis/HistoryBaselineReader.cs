using System.Data;
using Npgsql;
using NpgsqlTypes;
using PerfService.Core.Contracts;

namespace PerfService.Analysis;

/// <summary>
/// A series' recent runs on a branch: every sample (the fallback baseline of a head without interleaved base samples)
/// and each run's central value, oldest first (the noise history thresholds adapt to).
/// </summary>
public sealed record HistorySamples(IReadOnlyList<IReadOnlyList<double>> Rounds, IReadOnlyList<double> Values)
{
    public int Runs => Values.Count;
}

/// <summary>
/// Reads a pull request's history on its base branch: per benchmark × measure, the base branch's most recent runs on
/// the same profile at or before a point (the merge base, for the fallback baseline; none, for the noise history), in
/// the series order <see cref="SeriesReader"/> uses.
/// </summary>
public sealed class HistoryBaselineReader(NpgsqlDataSource dataSource)
{
    public const int DefaultRuns = 5;

    /// <summary>
    /// Where the merge base sits in the branch's series: the series position of its own runs on the branch, else its
    /// commit time. Null when the service cannot place it (never benchmarked on the branch and no commit time known,
    /// e.g. a commit first seen as some pull request's base): then the caller takes the latest runs.
    /// </summary>
    public async Task<DateTimeOffset?> CutoffAsync(
        long projectId,
        long branchId,
        string? baseCommit,
        CancellationToken ct
    )
    {
        if (baseCommit is null)
            return null;
        await using var cmd = dataSource.CreateCommand(
            """
            SELECT coalesce(
                (SELECT max(r.series_at) FROM runs ru JOIN results r ON r.run_id = ru.id
                 WHERE ru.commit_id = c.id AND ru.branch_id = $2 AND ru.pull_request IS NULL),
                c.committed_at) AS cutoff
            FROM commits c WHERE c.project_id = $1 AND c.sha = $3
            """
        );
        foreach (var v in new object[] { projectId, branchId, baseCommit.ToLowerInvariant() })
            cmd.Parameters.Add(new NpgsqlParameter { Value = v });
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        return await reader.ReadAsync(ct) && !reader.IsDBNull("cutoff")
            ? reader.GetFieldValue<DateTimeOffset>("cutoff")
            : null;
    }

    /// <summary>
    /// Per requested benchmark × measure: every sample of the last <paramref name="runs"/> successful results on the
    /// branch and profile at or before <paramref name="cutoff"/> (null: the latest). Pull-request runs and failed
    /// results
    /// never count; runs flagged as a profile mismatch only when the project opts in. Series without any such result
    /// are absent from the answer.
    /// </summary>
    public async Task<Dictionary<(long BenchmarkId, long MeasureId), HistorySamples>> ReadAsync(
        IReadOnlyList<(long BenchmarkId, long MeasureId)> series,
        long profileId,
        long branchId,
        DateTimeOffset? cutoff,
        int runs,
        CancellationToken ct,
        bool includeProfileMismatch = false
    )
    {
        var answer = new Dictionary<(long, long), HistorySamples>();
        if (series.Count == 0)
            return answer;
        // One round trip for every series: a lateral LIMIT per series, each an index range scan backwards from the
        // cutoff.
        await using var cmd = dataSource.CreateCommand(
            $"""
            SELECT k.benchmark_id, k.measure_id, h.samples, h.v
            FROM unnest($1::bigint[], $2::bigint[]) AS k(benchmark_id, measure_id)
            CROSS JOIN LATERAL (
                SELECT r.samples, coalesce(r.median, r.value) AS v
                FROM results r JOIN runs ru ON ru.id = r.run_id
                WHERE r.benchmark_id = k.benchmark_id AND r.measure_id = k.measure_id AND r.profile_id = $3 AND r.branch_id = $4
                  AND r.series_at <= coalesce($5, 'infinity'::timestamptz) AND r.value IS NOT NULL AND r.error IS NULL
                  AND ru.pull_request IS NULL AND ru.role = '{RunRole.Head.Name()}' AND (NOT ru.profile_mismatch OR $7) AND NOT ru.disturbed
                ORDER BY r.series_at DESC, r.run_id DESC
                LIMIT $6) h
            """
        );
        cmd.Parameters.Add(new NpgsqlParameter { Value = series.Select(s => s.BenchmarkId).ToArray() });
        cmd.Parameters.Add(new NpgsqlParameter { Value = series.Select(s => s.MeasureId).ToArray() });
        cmd.Parameters.Add(new NpgsqlParameter { Value = profileId });
        cmd.Parameters.Add(new NpgsqlParameter { Value = branchId });
        cmd.Parameters.Add(
            new NpgsqlParameter { Value = cutoff is { } c ? c : DBNull.Value, NpgsqlDbType = NpgsqlDbType.TimestampTz }
        );
        cmd.Parameters.Add(new NpgsqlParameter { Value = runs });
        cmd.Parameters.Add(new NpgsqlParameter { Value = includeProfileMismatch });

        var found = new Dictionary<(long, long), (List<IReadOnlyList<double>> Rounds, List<double> Values)>();
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        var (benchmark, measure) = (reader.GetOrdinal("benchmark_id"), reader.GetOrdinal("measure_id"));
        var (samples, value) = (reader.GetOrdinal("samples"), reader.GetOrdinal("v"));
        while (await reader.ReadAsync(ct))
        {
            var key = (reader.GetInt64(benchmark), reader.GetInt64(measure));
            if (!found.TryGetValue(key, out var acc))
                found[key] = acc = ([], []);
            // Like the job's own runs: each run is a round, its samples or its central value when it stored none.
            acc.Rounds.Add(
                !reader.IsDBNull(samples) && reader.GetFieldValue<double[]>(samples) is { Length: > 0 } s
                    ? s
                    : [reader.GetDouble(value)]
            );
            acc.Values.Add(reader.GetDouble(value));
        }
        // Rows come newest first (the LIMIT keeps the latest); the noise history reads in commit order.
        foreach (var (key, acc) in found)
        {
            acc.Values.Reverse();
            acc.Rounds.Reverse();
            answer[key] = new HistorySamples(acc.Rounds, acc.Values);
        }
        return answer;
    }
}
