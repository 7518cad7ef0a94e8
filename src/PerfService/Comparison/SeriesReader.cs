using Npgsql;

namespace PerfService.Comparison;

/// <summary>One point of a stored series: the run's central value at a commit.</summary>
public readonly record struct SeriesPoint(long ResultId, long RunId, string Commit, DateTimeOffset SeriesAt, double Value);

/// <summary>
/// Reads series in commit order through the covering index on results. Results of runs flagged as a profile mismatch
/// (a machine that did not match its profile) are left out unless the project opts in: a different machine's level
/// would read as a step. Every read filters alike, so that a detector state's point count and a later read agree.
/// </summary>
public sealed class SeriesReader(NpgsqlDataSource dataSource)
{
    /// <summary>
    /// Whole series (benchmark × measure × profile × branch) of one profile and branch, for parallel arrays of benchmark and
    /// measure ids, in one query; each oldest first, failed results skipped.
    /// </summary>
    public async Task<Dictionary<(long BenchmarkId, long MeasureId), List<SeriesPoint>>> ReadManyAsync(long[] benchmarkIds, long[] measureIds,
        long profileId, long branchId, CancellationToken ct, bool includeProfileMismatch = false)
    {
        if (benchmarkIds.Length == 0) return []; // a round trip (and a plan guessing ten rows) for nothing
        // A lateral read per series, each a range scan of the covering index: a plain join of many keys to results let the
        // planner pick a scan of the whole table (9 s for a 10,000-series read measured, against milliseconds). Points of
        // profile-mismatch runs are left out through the run row joined for the commit, not a second lookup per point.
        await using var cmd = dataSource.CreateCommand("""
            SELECT k.b, k.m, r.id, r.run_id, c.sha, r.series_at, r.v
            FROM unnest($1::bigint[], $2::bigint[]) AS k(b, m)
            CROSS JOIN LATERAL (
                SELECT r.id, r.run_id, r.series_at, coalesce(r.median, r.value) AS v FROM results r
                WHERE r.benchmark_id = k.b AND r.measure_id = k.m AND r.profile_id = $3 AND r.branch_id = $4 AND r.value IS NOT NULL
                ORDER BY r.series_at, r.run_id) r
            JOIN runs ru ON ru.id = r.run_id JOIN commits c ON c.id = ru.commit_id
            WHERE $5 OR NOT ru.profile_mismatch
            ORDER BY k.b, k.m, r.series_at, r.run_id
            """);
        foreach (var v in new object[] { benchmarkIds, measureIds, profileId, branchId, includeProfileMismatch })
            cmd.Parameters.Add(new NpgsqlParameter { Value = v });
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

    /// <summary>The tails read (parameters: benchmark ids, measure ids, last fed series_at, profile, branch, margin,
    /// include profile mismatch); public for the plan test.</summary>
    public const string TailsSql = """
        WITH mismatch AS MATERIALIZED (SELECT id FROM runs WHERE profile_id = $4 AND profile_mismatch AND NOT $7)
        SELECT k.i, c.n - cx.n, t.id, t.run_id, cm.sha, t.series_at, t.v, ru.profile_mismatch
        FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[]) WITH ORDINALITY AS k(b, m, at, i)
        CROSS JOIN LATERAL (
            SELECT count(*) AS n FROM results r
            WHERE r.benchmark_id = k.b AND r.measure_id = k.m AND r.profile_id = $4 AND r.branch_id = $5
              AND r.value IS NOT NULL AND r.series_at <= k.at) c
        CROSS JOIN LATERAL (
            SELECT count(*) AS n FROM mismatch x
            CROSS JOIN LATERAL (SELECT 1 FROM results r WHERE r.run_id = x.id AND r.benchmark_id = k.b AND r.measure_id = k.m
                                AND r.branch_id = $5 AND r.value IS NOT NULL AND r.series_at <= k.at LIMIT 1) hit) cx
        LEFT JOIN LATERAL (
            (SELECT r.id, r.run_id, r.series_at, coalesce(r.median, r.value) AS v FROM results r
             WHERE r.benchmark_id = k.b AND r.measure_id = k.m AND r.profile_id = $4 AND r.branch_id = $5
               AND r.value IS NOT NULL AND r.series_at <= k.at
             ORDER BY r.series_at DESC, r.run_id DESC LIMIT $6)
            UNION ALL
            (SELECT r.id, r.run_id, r.series_at, coalesce(r.median, r.value) FROM results r
             WHERE r.benchmark_id = k.b AND r.measure_id = k.m AND r.profile_id = $4 AND r.branch_id = $5
               AND r.value IS NOT NULL AND r.series_at > k.at)) t ON true
        LEFT JOIN runs ru ON ru.id = t.run_id LEFT JOIN commits cm ON cm.id = ru.commit_id
        """;

    /// <summary>
    /// For series already fed to the detector (their states, one profile and branch): the points after the last one fed,
    /// with up to <paramref name="margin"/> points before them, and where that window starts in the whole series. Every
    /// state gets a window, empty if the series has no points.
    /// The start is an index-only count of the series up to the last point fed, less the points of profile-mismatch runs
    /// (found through their own small index). Filtering every counted point through runs instead cost 80% of this read
    /// under the load test (a runs lookup per point of history: 245,000 for 500 series). The window's own rows drop
    /// mismatch points here, so the margin may hold fewer than <paramref name="margin"/> points, never a wrong one.
    /// </summary>
    public async Task<Dictionary<(long BenchmarkId, long MeasureId), SeriesWindow>> ReadTailsAsync(IReadOnlyList<Data.Entities.SeriesState> states,
        int margin, CancellationToken ct, bool includeProfileMismatch = false)
    {
        var windows = new Dictionary<(long, long), SeriesWindow>();
        if (states.Count == 0) return windows;
        await using var cmd = dataSource.CreateCommand(TailsSql);
        foreach (var v in new object[] { states.Select(x => x.BenchmarkId).ToArray(), states.Select(x => x.MeasureId).ToArray(),
                     states.Select(x => x.LastSeriesAt).ToArray(), states[0].ProfileId, states[0].BranchId, margin, includeProfileMismatch })
            cmd.Parameters.Add(new NpgsqlParameter { Value = v });
        var upto = new long[states.Count];
        var points = states.Select(_ => new List<SeriesPoint>()).ToArray();
        await using (var reader = await cmd.ExecuteReaderAsync(ct))
            while (await reader.ReadAsync(ct))
            {
                var i = (int)reader.GetInt64(0) - 1;
                upto[i] = reader.GetInt64(1);
                if (!reader.IsDBNull(2) && (includeProfileMismatch || !reader.GetBoolean(7)))
                    points[i].Add(new SeriesPoint(reader.GetInt64(2), reader.GetInt64(3), reader.GetString(4), reader.GetFieldValue<DateTimeOffset>(5), reader.GetDouble(6)));
            }
        for (var i = 0; i < states.Count; i++)
        {
            var list = points[i];
            list.Sort((a, b) => a.SeriesAt != b.SeriesAt ? a.SeriesAt.CompareTo(b.SeriesAt) : a.RunId.CompareTo(b.RunId));
            var before = list.Count(p => p.SeriesAt <= states[i].LastSeriesAt);
            windows[(states[i].BenchmarkId, states[i].MeasureId)] = new SeriesWindow((int)upto[i] - before, list);
        }
        return windows;
    }
}
