using System.Data;
using Npgsql;
using NpgsqlTypes;
using PerfService.Data;

namespace PerfService.Dashboard;

internal sealed record SeriesContext(
    SeriesBenchmarkDto Benchmark,
    long MeasureId,
    MeasureDto Measure,
    long BranchId,
    IReadOnlyList<(long Id, string Name)> Profiles
);

internal sealed record SeriesRange(
    DateTimeOffset From,
    DateTimeOffset To,
    DateTimeOffset AfterAt,
    long AfterRun,
    int Limit
);

/// <summary>One line per profile that has points, in the order of <see cref="SeriesContext.Profiles"/>.</summary>
internal sealed record SeriesRows(IReadOnlyList<SeriesLine> Lines, IReadOnlyList<SeriesMarkerDto> Markers);

/// <summary>
/// The history read, the hottest query of the dashboard. Each profile's line is one range scan of the covering index
/// (benchmark_id, measure_id, profile_id, branch_id, series_at) INCLUDE (value, ci_lower, ci_upper, sample_count,
/// run_id),
/// so results' heap is not touched; commit shas come from <see cref="RunShaCache"/> (one indexed lookup on a miss).
/// Each read is one round trip: the statements go together in a batch.
/// </summary>
internal sealed class SeriesQuery(NpgsqlDataSource dataSource, PerfDbContext db, RunShaCache shas)
{
    public async Task<(SeriesContext? Context, string? Missing)> ResolveAsync(
        long projectId,
        long benchmarkId,
        string measure,
        string branch,
        bool defaultBranch,
        string[]? profiles,
        CancellationToken ct
    )
    {
        await using var batch = dataSource.CreateBatch();
        batch.BatchCommands.Add(Command(ResolveSql, benchmarkId, projectId, measure, branch));
        batch.BatchCommands.Add(
            new NpgsqlBatchCommand(ProfilesSql)
            {
                Parameters =
                {
                    new()
                    {
                        Value = profiles is { Length: > 0 } ? profiles : DBNull.Value,
                        NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Text,
                    },
                },
            }
        );
        SeriesBenchmarkDto bench;
        long measureId,
            branchId;
        MeasureDto measureDto;
        var found = new List<(long, string)>();
        await using (var reader = await batch.ExecuteReaderAsync(ct))
        {
            if (!await reader.ReadAsync(ct))
                return (null, $"benchmark {benchmarkId} is not in this project");
            if (reader.IsDBNull("measure_id"))
                return (null, $"measure '{measure}' is unknown");
            // The default branch exists before its first run: its history is empty, not unknown.
            if (reader.IsDBNull("branch_id") && !defaultBranch)
                return (null, $"branch '{branch}' is unknown");
            bench = new SeriesBenchmarkDto(
                benchmarkId,
                reader.GetString("key"),
                reader.GetString("name"),
                reader.GetString("suite"),
                BenchmarksEndpoint.ParseParameters(reader.GetString("parameters")),
                reader.IsDBNull("job") ? null : reader.GetString("job")
            );
            measureId = reader.GetInt64("measure_id");
            measureDto = new MeasureDto(
                reader.GetString("measure"),
                reader.GetString("unit"),
                reader.GetString("direction")
            );
            branchId = reader.IsDBNull("branch_id") ? 0 : reader.GetInt64("branch_id");
            await reader.NextResultAsync(ct);
            var (id, name) = (reader.GetOrdinal("id"), reader.GetOrdinal("name"));
            while (await reader.ReadAsync(ct))
                found.Add((reader.GetInt64(id), reader.GetString(name)));
        }
        var unknown = profiles?.Except(found.Select(f => f.Item2)).FirstOrDefault();
        if (unknown is not null)
            return (null, $"profile '{unknown}' is unknown");
        return (new SeriesContext(bench, measureId, measureDto, branchId, found), null);
    }

    /// <summary>
    /// Up to <c>Limit + 1</c> points per profile (the extra one tells whether the line goes on), and the markers. A
    /// statement per profile rather than one over all of them: each comes ordered from the index, with nothing to sort.
    /// </summary>
    public async Task<SeriesRows> ReadAsync(SeriesContext c, SeriesRange range, CancellationToken ct)
    {
        await using var batch = dataSource.CreateBatch();
        foreach (var (profileId, _) in c.Profiles)
            batch.BatchCommands.Add(
                Command(
                    PointsSql,
                    c.Benchmark.Id,
                    c.MeasureId,
                    profileId,
                    c.BranchId,
                    range.From,
                    range.To,
                    range.AfterAt,
                    range.AfterRun,
                    range.Limit + 1
                )
            );
        batch.BatchCommands.Add(
            Command(MarkersSql, c.Benchmark.Id, c.MeasureId, c.Profiles.Select(p => p.Id).ToArray())
        );

        var lines = new List<SeriesLine>();
        var markers = new List<SeriesMarkerDto>();
        await using (var reader = await batch.ExecuteReaderAsync(ct))
        {
            foreach (var (_, name) in c.Profiles)
            {
                var line = new SeriesLine(name);
                // Every profile's statement has the same columns: looked up once per result set, before its rows.
                var (run, at, value) = (
                    reader.GetOrdinal("run_id"),
                    reader.GetOrdinal("series_at"),
                    reader.GetOrdinal("value")
                );
                var (lower, upper) = (reader.GetOrdinal("ci_lower"), reader.GetOrdinal("ci_upper"));
                var samples = reader.GetOrdinal("sample_count");
                while (await reader.ReadAsync(ct))
                    line.Points.Add(
                        new SeriesPoint(
                            reader.GetInt64(run),
                            "",
                            reader.GetFieldValue<DateTimeOffset>(at),
                            reader.GetDouble(value),
                            reader.IsDBNull(lower) ? null : reader.GetDouble(lower),
                            reader.IsDBNull(upper) ? null : reader.GetDouble(upper),
                            reader.GetInt32(samples)
                        )
                    );
                if (line.Points.Count > 0)
                    lines.Add(line);
                await reader.NextResultAsync(ct);
            }
            var (id, kind, state, profile) = (
                reader.GetOrdinal("id"),
                reader.GetOrdinal("kind"),
                reader.GetOrdinal("state"),
                reader.GetOrdinal("profile")
            );
            var (fromCommit, toCommit) = (reader.GetOrdinal("from_commit"), reader.GetOrdinal("to_commit"));
            var (committedAt, summary, groupId) = (
                reader.GetOrdinal("committed_at"),
                reader.GetOrdinal("summary"),
                reader.GetOrdinal("alert_group_id")
            );
            while (await reader.ReadAsync(ct))
                markers.Add(
                    new SeriesMarkerDto(
                        reader.GetInt64(id),
                        reader.GetString(kind),
                        reader.GetString(state),
                        reader.IsDBNull(profile) ? null : reader.GetString(profile),
                        reader.IsDBNull(fromCommit) ? null : reader.GetString(fromCommit),
                        reader.IsDBNull(toCommit) ? null : reader.GetString(toCommit),
                        reader.IsDBNull(committedAt) ? null : reader.GetFieldValue<DateTimeOffset>(committedAt),
                        reader.GetString(summary),
                        reader.IsDBNull(groupId) ? null : reader.GetInt64(groupId)
                    )
                );
        }

        var commits = await shas.GetAsync(db, lines.SelectMany(l => l.Points).Select(p => p.RunId).ToList(), ct);
        var next = 0;
        foreach (var line in lines)
            for (var i = 0; i < line.Points.Count; i++)
                line.Points[i] = line.Points[i] with { Commit = commits[next++] };
        return new SeriesRows(lines, markers);
    }

    private const string ResolveSql = """
        SELECT b.key, b.name, b.parameters::text AS parameters, b.job, s.name AS suite,
               m.id AS measure_id, m.name AS measure, m.unit, m.direction,
               (SELECT br.id FROM branches br WHERE br.project_id = $2 AND br.name = $4) AS branch_id
        FROM benchmarks b
        JOIN suites s ON s.id = b.suite_id AND s.project_id = $2
        LEFT JOIN LATERAL (
            SELECT m.* FROM measures m WHERE m.name = $3
            ORDER BY EXISTS (SELECT 1 FROM results r WHERE r.benchmark_id = b.id AND r.measure_id = m.id) DESC, m.id
            LIMIT 1) m ON true
        WHERE b.id = $1
        """;

    private const string ProfilesSql =
        "SELECT id, name FROM profiles WHERE $1::text[] IS NULL OR name = ANY($1) ORDER BY id";

    // The cursor's tie-break on run_id is a filter, not an index condition: run_id is an INCLUDE column.
    internal const string PointsSql = """
        SELECT r.run_id, r.series_at, r.value, r.ci_lower, r.ci_upper, r.sample_count
        FROM results r
        WHERE r.benchmark_id = $1 AND r.measure_id = $2 AND r.profile_id = $3 AND r.branch_id = $4
          AND r.series_at >= greatest($5, $7) AND r.series_at < $6
          AND (r.series_at > $7 OR r.run_id > $8)
          AND r.value IS NOT NULL
        ORDER BY r.series_at, r.run_id
        LIMIT $9
        """;

    private const string MarkersSql = """
        SELECT a.id, a.kind, a.state, p.name AS profile, a.from_commit, a.to_commit,
               coalesce(c.committed_at, c.first_seen_at) AS committed_at, a.summary, a.alert_group_id
        FROM alerts a
        LEFT JOIN profiles p ON p.id = a.profile_id
        LEFT JOIN commits c ON c.project_id = a.project_id AND c.sha = lower(a.to_commit)
        WHERE a.benchmark_id = $1 AND a.measure_id = $2 AND (a.profile_id IS NULL OR a.profile_id = ANY($3))
        ORDER BY a.created_at, a.id
        """;

    private static NpgsqlBatchCommand Command(string sql, params object[] args)
    {
        var cmd = new NpgsqlBatchCommand(sql);
        foreach (var a in args)
            cmd.Parameters.Add(new NpgsqlParameter { Value = a });
        return cmd;
    }
}
