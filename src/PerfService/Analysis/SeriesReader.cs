using Npgsql;

namespace PerfService.Analysis;

/// <summary>One point of a stored series: the run's central value at a commit.</summary>
public readonly record struct SeriesPoint(
    long ResultId,
    long RunId,
    string Commit,
    DateTimeOffset SeriesAt,
    double Value
);

/// <summary>A result an analysed run brings to its change-point series, by ids: all the series update needs.</summary>
public readonly record struct RunPoint(long ResultId, long RunId, long BenchmarkId, long MeasureId, bool LowerIsBetter);

/// <summary>
/// Reads series for the change-point detector, in commit order through the covering index on results. Two kinds of
/// point are left out, by every read alike, so that a detector state's point count and a later read agree: results
/// of runs flagged as a profile mismatch (a machine that did not match its profile), unless the project opts in,
/// since a different machine's level would read as a step; and results of runs not yet analysed, except those of the
/// runs being analysed now (<c>including</c>): a run's points reach its series when its own analysis runs, so a
/// point that arrives out of commit order is always one the analysis brings.
/// </summary>
public sealed class SeriesReader(NpgsqlDataSource dataSource)
{
    /// <summary>
    /// Whole series (benchmark × measure × profile × branch) of one profile and branch, for parallel arrays of
    /// benchmark and
    /// measure ids, in one query; each oldest first, failed results skipped.
    /// </summary>
    public async Task<Dictionary<(long BenchmarkId, long MeasureId), List<SeriesPoint>>> ReadManyAsync(
        long[] benchmarkIds,
        long[] measureIds,
        long profileId,
        long branchId,
        long[] including,
        CancellationToken ct,
        bool includeProfileMismatch = false
    )
    {
        if (benchmarkIds.Length == 0)
            return []; // a round trip (and a plan guessing ten rows) for nothing
        // A lateral read per series, each a range scan of the covering index: a plain join of many keys to results let
        // the
        // planner pick a scan of the whole table (9 s for a 10,000-series read measured, against milliseconds). Points
        // are
        // left out through the run row joined for the commit, not a second lookup per point.
        await using var cmd = dataSource.CreateCommand(
            """
            SELECT k.b, k.m, r.id, r.run_id, c.sha, r.series_at, r.v
            FROM unnest($1::bigint[], $2::bigint[]) AS k(b, m)
            CROSS JOIN LATERAL (
                SELECT r.id, r.run_id, r.series_at, coalesce(r.median, r.value) AS v FROM results r
                WHERE r.benchmark_id = k.b AND r.measure_id = k.m AND r.profile_id = $3 AND r.branch_id = $4 AND r.value IS NOT NULL
                ORDER BY r.series_at, r.run_id) r
            JOIN runs ru ON ru.id = r.run_id JOIN commits c ON c.id = ru.commit_id
            WHERE ($5 OR NOT ru.profile_mismatch) AND NOT ru.disturbed AND (ru.analysed_at IS NOT NULL OR ru.id = ANY($6))
            ORDER BY k.b, k.m, r.series_at, r.run_id
            """
        );
        foreach (
            var v in new object[] { benchmarkIds, measureIds, profileId, branchId, includeProfileMismatch, including }
        )
            cmd.Parameters.Add(new NpgsqlParameter { Value = v });
        var series = new Dictionary<(long, long), List<SeriesPoint>>();
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        var (b, m, at) = (reader.GetOrdinal("b"), reader.GetOrdinal("m"), PointColumns.Of(reader));
        var shas = new Dictionary<long, string>();
        while (await reader.ReadAsync(ct))
        {
            var key = (reader.GetInt64(b), reader.GetInt64(m));
            if (!series.TryGetValue(key, out var points))
                series[key] = points = [];
            points.Add(at.Read(reader, shas));
        }
        return series;
    }

    /// <summary>The results with a value (those the series reads hold) of some runs, by run and result. Ids only: read
    /// through EF with their names, units and summaries, as targets need them, they were a fifth of what an analysis
    /// allocated, and the collector's share of its CPU grows with that.</summary>
    public async Task<Dictionary<long, List<RunPoint>>> ReadRunPointsAsync(long[] runIds, CancellationToken ct)
    {
        await using var cmd = dataSource.CreateCommand(
            """
            SELECT r.id, r.run_id, r.benchmark_id, r.measure_id, m.direction = $2 AS lower FROM results r
            JOIN measures m ON m.id = r.measure_id
            WHERE r.run_id = ANY($1) AND r.value IS NOT NULL
            ORDER BY r.run_id, r.id
            """
        );
        cmd.Parameters.Add(new NpgsqlParameter { Value = runIds });
        cmd.Parameters.Add(new NpgsqlParameter { Value = nameof(Core.Results.Direction.LowerIsBetter) });
        // A list per run: one for the batch's tens of thousands would be a large object.
        var points = new Dictionary<long, List<RunPoint>>();
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        var (id, run, benchmark, measure, lower) = (
            reader.GetOrdinal("id"),
            reader.GetOrdinal("run_id"),
            reader.GetOrdinal("benchmark_id"),
            reader.GetOrdinal("measure_id"),
            reader.GetOrdinal("lower")
        );
        List<RunPoint>? of = null;
        while (await reader.ReadAsync(ct))
        {
            var point = new RunPoint(
                reader.GetInt64(id),
                reader.GetInt64(run),
                reader.GetInt64(benchmark),
                reader.GetInt64(measure),
                reader.GetBoolean(lower)
            );
            if (of is null || of[0].RunId != point.RunId)
                points[point.RunId] = of = [];
            of.Add(point);
        }
        return points;
    }

    /// <summary>The tails read (parameters: benchmark ids, measure ids, last fed series_at, profile, branch, margin,
    /// include profile mismatch, runs being analysed); public for the plan test.</summary>
    public const string TailsSql = """
        SELECT k.i, t.id, t.run_id, cm.sha, t.series_at, t.v
        FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[]) WITH ORDINALITY AS k(b, m, at, i)
        CROSS JOIN LATERAL (
            (SELECT r.id, r.run_id, r.series_at, coalesce(r.median, r.value) AS v FROM results r
             WHERE r.benchmark_id = k.b AND r.measure_id = k.m AND r.profile_id = $4 AND r.branch_id = $5
               AND r.value IS NOT NULL AND r.series_at <= k.at
             ORDER BY r.series_at DESC, r.run_id DESC LIMIT $6)
            UNION ALL
            (SELECT r.id, r.run_id, r.series_at, coalesce(r.median, r.value) FROM results r
             WHERE r.benchmark_id = k.b AND r.measure_id = k.m AND r.profile_id = $4 AND r.branch_id = $5
               AND r.value IS NOT NULL AND r.series_at > k.at)) t
        JOIN runs ru ON ru.id = t.run_id JOIN commits cm ON cm.id = ru.commit_id
        WHERE ($7 OR NOT ru.profile_mismatch) AND NOT ru.disturbed AND (ru.analysed_at IS NOT NULL OR ru.id = ANY($8))
        """;

    /// <summary>
    /// For series already fed to the detector (their states, one profile and branch): the points after the last one
    /// fed,
    /// with up to <paramref name="margin"/> points before them, oldest first; an empty list for a series without
    /// points.
    /// Where the window lies in the whole series follows from the state (<see cref="SeriesWindow.Tail"/>), so the read
    /// costs the same at any length of history: it used to count the series up to the last point fed, which grew
    /// with every run (817 ms per batch under the 50-agent load test). The margin's rows are taken before points are
    /// left out, so it may hold fewer than <paramref name="margin"/> points, never a wrong one.
    /// </summary>
    /// <param name="arriving">How many points arrive for each state now, if known: room is kept for them.</param>
    public async Task<Dictionary<(long BenchmarkId, long MeasureId), List<SeriesPoint>>> ReadTailsAsync(
        IReadOnlyList<Data.Entities.SeriesState> states,
        int margin,
        long[] including,
        CancellationToken ct,
        bool includeProfileMismatch = false,
        IReadOnlyList<int>? arriving = null
    )
    {
        var tails = new Dictionary<(long, long), List<SeriesPoint>>();
        if (states.Count == 0)
            return tails;
        await using var cmd = dataSource.CreateCommand(TailsSql);
        foreach (
            var v in new object[]
            {
                states.Select(x => x.BenchmarkId).ToArray(),
                states.Select(x => x.MeasureId).ToArray(),
                states.Select(x => x.LastSeriesAt).ToArray(),
                states[0].ProfileId,
                states[0].BranchId,
                margin,
                includeProfileMismatch,
                including,
            }
        )
            cmd.Parameters.Add(new NpgsqlParameter { Value = v });
        // Room for the margin, the last point fed and the points arriving: growing each list from four was a sixteenth
        // of what an analysis allocated, an eighth once the batch's results were read as ids.
        var points = states.Select((_, i) => new List<SeriesPoint>(margin + 2 + (arriving?[i] ?? 2))).ToArray();
        await using (var reader = await cmd.ExecuteReaderAsync(ct))
        {
            var (i, at) = (reader.GetOrdinal("i"), PointColumns.Of(reader));
            var shas = new Dictionary<long, string>();
            while (await reader.ReadAsync(ct))
                points[(int)reader.GetInt64(i) - 1].Add(at.Read(reader, shas));
        }
        for (var i = 0; i < states.Count; i++)
        {
            points[i]
                .Sort(
                    (a, b) => a.SeriesAt != b.SeriesAt ? a.SeriesAt.CompareTo(b.SeriesAt) : a.RunId.CompareTo(b.RunId)
                );
            tails[(states[i].BenchmarkId, states[i].MeasureId)] = points[i];
        }
        return tails;
    }

    /// <summary>Where a point's columns (<c>id, run_id, sha, series_at, v</c>) lie in a reader: looked up once per
    /// reader.</summary>
    private readonly record struct PointColumns(int Id, int RunId, int Sha, int SeriesAt, int Value)
    {
        public static PointColumns Of(NpgsqlDataReader r) =>
            new(
                r.GetOrdinal("id"),
                r.GetOrdinal("run_id"),
                r.GetOrdinal("sha"),
                r.GetOrdinal("series_at"),
                r.GetOrdinal("v")
            );

        /// <param name="shas">Commits already read, by run: every point of a run names the same commit, so it is
        /// decoded once per run instead of once per point.</param>
        public SeriesPoint Read(NpgsqlDataReader r, Dictionary<long, string> shas)
        {
            var runId = r.GetInt64(RunId);
            if (!shas.TryGetValue(runId, out var sha))
                shas[runId] = sha = r.GetString(Sha);
            return new(r.GetInt64(Id), runId, sha, r.GetFieldValue<DateTimeOffset>(SeriesAt), r.GetDouble(Value));
        }
    }
}
