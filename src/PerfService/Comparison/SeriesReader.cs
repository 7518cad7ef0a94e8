using Npgsql;

namespace PerfService.Comparison;

/// <summary>One point of a stored series: the run's central value at a commit.</summary>
public readonly record struct SeriesPoint(long ResultId, long RunId, string Commit, DateTimeOffset SeriesAt, double Value);

/// <summary>Reads series in commit order through the covering index on results.</summary>
public sealed class SeriesReader(NpgsqlDataSource dataSource)
{
    /// <summary>
    /// Whole series (benchmark × measure × profile × branch) of one profile and branch, for parallel arrays of benchmark and
    /// measure ids, in one query; each oldest first, failed results skipped.
    /// </summary>
    public async Task<Dictionary<(long BenchmarkId, long MeasureId), List<SeriesPoint>>> ReadManyAsync(long[] benchmarkIds, long[] measureIds,
        long profileId, long branchId, CancellationToken ct)
    {
        await using var cmd = dataSource.CreateCommand("""
            SELECT r.benchmark_id, r.measure_id, r.id, r.run_id, c.sha, r.series_at, coalesce(r.median, r.value)
            FROM unnest($1::bigint[], $2::bigint[]) AS k(b, m)
            JOIN results r ON r.benchmark_id = k.b AND r.measure_id = k.m
            JOIN runs ru ON ru.id = r.run_id JOIN commits c ON c.id = ru.commit_id
            WHERE r.profile_id = $3 AND r.branch_id = $4 AND r.value IS NOT NULL
            ORDER BY r.benchmark_id, r.measure_id, r.series_at, r.run_id
            """);
        foreach (var v in new object[] { benchmarkIds, measureIds, profileId, branchId }) cmd.Parameters.Add(new NpgsqlParameter { Value = v });
        var series = new Dictionary<(long, long), List<SeriesPoint>>();
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        while (await reader.ReadAsync(ct))
        {
            var key = (reader.GetInt64(0), reader.GetInt64(1));
            if (!series.TryGetValue(key, out var points)) series[key] = points = [];
            points.Add(new SeriesPoint(reader.GetInt64(2), reader.GetInt64(3), reader.GetString(4), reader.GetFieldValue<DateTimeOffset>(5), reader.GetDouble(6)));
        }
        return series;
    }

    /// <summary>The last <paramref name="count"/> central values of a series up to a time: the noise history for thresholds.</summary>
    public async Task<List<double>> HistoryAsync(long benchmarkId, long measureId, long profileId, long branchId, DateTimeOffset upTo, int count, CancellationToken ct)
    {
        await using var cmd = dataSource.CreateCommand("""
            SELECT v FROM (
                SELECT coalesce(r.median, r.value) AS v, r.series_at
                FROM results r
                WHERE r.benchmark_id = $1 AND r.measure_id = $2 AND r.profile_id = $3 AND r.branch_id = $4 AND r.series_at <= $5 AND r.value IS NOT NULL
                ORDER BY r.series_at DESC LIMIT $6) t
            ORDER BY series_at
            """);
        foreach (var v in new object[] { benchmarkId, measureId, profileId, branchId, upTo, count }) cmd.Parameters.Add(new NpgsqlParameter { Value = v });
        var values = new List<double>();
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        while (await reader.ReadAsync(ct)) values.Add(reader.GetDouble(0));
        return values;
    }
}
