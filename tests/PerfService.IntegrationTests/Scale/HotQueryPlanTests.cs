using System.Text.Json;
using Npgsql;
using PerfService.Dashboard;

namespace PerfService.IntegrationTests.Scale;

/// <summary>
/// The plans of the dashboard's hot reads, asserted the way efcore.pg asserts its SQL: with enough history seeded and
/// ANALYZE run, each read reaches results only through its index (never a sequential scan of the 50-million-row
/// table), whatever the data. The SQL is the endpoints' own (the constants they execute).
/// </summary>
public class HotQueryPlanTests : IAsyncLifetime
{
    private const int Benchmarks = 400, Commits = 150, Profiles = 3;
    private TestDatabase _db = null!;
    private long _project, _benchmark, _measure, _branch, _baseRun, _headRun;

    public async Task InitializeAsync()
    {
        _db = await TestDatabase.CreateAsync();
        await using var conn = await OpenAsync();
        _project = await ScalarAsync(conn, "INSERT INTO projects (slug, name, default_branch, is_public, created_at) VALUES ('plans', 'plans', 'main', true, now()) RETURNING id");
        _branch = await ScalarAsync(conn, $"INSERT INTO branches (project_id, name) VALUES ({_project}, 'main') RETURNING id");
        var suite = await ScalarAsync(conn, $"INSERT INTO suites (project_id, name, harness) VALUES ({_project}, 's', 'json') RETURNING id");
        _measure = await ScalarAsync(conn, "INSERT INTO measures (name, unit, direction) VALUES ('time', 'ns', 'LowerIsBetter') RETURNING id");
        // 400 benchmarks × 3 profiles × 150 commits = 180,000 results with 20 samples each, as ingest lays them out.
        await ExecAsync(conn, $"""
            INSERT INTO benchmarks (suite_id, key, name, parameters) SELECT {suite}, 'B' || i, 'B' || i, '{"{}"}' FROM generate_series(1, {Benchmarks}) i;
            INSERT INTO commits (project_id, sha, committed_at, first_seen_at) SELECT {_project}, md5(c::text), now() - (c || ' hours')::interval, now() FROM generate_series(1, {Commits}) c;
            INSERT INTO runs (project_id, commit_id, branch_id, profile_id, suite_id, role, round, format, profile_mismatch, environment, created_at, result_count, failed_count)
            SELECT {_project}, c.id, {_branch}, p.id, {suite}, 'head', 0, 'json', false, '{"{}"}', c.committed_at, {Benchmarks}, 0
            FROM commits c CROSS JOIN (SELECT id FROM profiles ORDER BY id LIMIT {Profiles}) p WHERE c.project_id = {_project};
            INSERT INTO results (run_id, benchmark_id, measure_id, profile_id, branch_id, series_at, value, ci_lower, ci_upper, sample_count, samples)
            SELECT r.id, b.id, {_measure}, r.profile_id, r.branch_id, r.created_at, 100 + random(), 99, 101, 20, array_fill(100.0::float8, ARRAY[20])
            FROM runs r CROSS JOIN benchmarks b WHERE b.suite_id = {suite};
            """);
        // Other projects' runs, so that the runs table is large enough for its plan to matter (results are not needed).
        await ExecAsync(conn, $"""
            INSERT INTO projects (slug, name, default_branch, is_public, created_at) VALUES ('others', 'others', 'main', true, now());
            INSERT INTO suites (project_id, name) SELECT id, 's' FROM projects WHERE slug = 'others';
            INSERT INTO commits (project_id, sha, first_seen_at) SELECT id, 'abcdef12', now() FROM projects WHERE slug = 'others';
            INSERT INTO runs (project_id, commit_id, profile_id, suite_id, role, round, format, profile_mismatch, environment, created_at)
            SELECT c.project_id, c.id, 1, s.id, 'head', 0, 'json', false, '{"{}"}', now() - (i || ' minutes')::interval
            FROM commits c JOIN suites s ON s.project_id = c.project_id CROSS JOIN generate_series(1, 30000) i
            WHERE c.project_id = (SELECT id FROM projects WHERE slug = 'others');
            """);
        await ExecAsync(conn, "VACUUM ANALYZE results");
        await ExecAsync(conn, "ANALYZE");
        _benchmark = await ScalarAsync(conn, $"SELECT min(id) + 7 FROM benchmarks WHERE suite_id = {suite}");
        _baseRun = await ScalarAsync(conn, "SELECT min(id) FROM runs");
        _headRun = await ScalarAsync(conn, "SELECT max(id) FROM runs");
    }

    [Fact]
    public async Task The_series_read_is_an_index_only_range_scan_of_the_covering_index()
    {
        var plan = await ExplainAsync(SeriesQuery.PointsSql, _benchmark, _measure, 1L, _branch, DateTimeOffset.MinValue, DateTimeOffset.MaxValue,
            DateTimeOffset.MinValue, 0L, 10_001);
        AssertNoSeqScanOfResults(plan);
        Assert.Contains(Nodes(plan), n => n.Type == "Index Only Scan" && n.Relation == "results"
            && n.Index == "ix_results_benchmark_id_measure_id_profile_id_branch_id_series");
    }

    [Fact]
    public async Task The_compare_read_finds_both_runs_results_through_the_run_index()
    {
        var plan = await ExplainAsync(CompareQuery.RowsSql, new[] { _baseRun }, new[] { _headRun });
        AssertNoSeqScanOfResults(plan);
        var results = Nodes(plan).Where(n => n.Relation == "results" || n.Index?.StartsWith("ix_results_", StringComparison.Ordinal) == true).ToList();
        Assert.Equal(2, results.Count(n => n.Index == "ix_results_run_id_benchmark_id_measure_id"));
    }

    [Fact]
    public async Task The_overview_reads_the_newest_runs_by_index_and_never_results()
    {
        var plan = await ExplainAsync(OverviewEndpoint.LatestRunsSql, _project, 5000, DBNull.Value);
        var nodes = Nodes(plan).ToList();
        Assert.DoesNotContain(nodes, n => n.Relation == "results");
        Assert.Contains(nodes, n => n.Index == "ix_runs_project_id_created_at");
        Assert.DoesNotContain(nodes, n => n.Type == "Seq Scan" && n.Relation == "runs");
    }

    [Fact]
    public async Task The_analysis_tail_read_reaches_each_series_through_the_index_and_counts_nothing()
    {
        var benchmarks = Enumerable.Range(0, 200).Select(i => _benchmark - 7 + i).ToArray();
        var plan = await ExplainAsync(PerfService.Analysis.SeriesReader.TailsSql, benchmarks, benchmarks.Select(_ => _measure).ToArray(),
            benchmarks.Select(_ => DateTimeOffset.UtcNow.AddHours(-20)).ToArray(), 1L, _branch, 64, false, Array.Empty<long>());
        AssertNoSeqScanOfResults(plan);
        var nodes = Nodes(plan).ToList();
        // Each series: two range scans of the covering index (the margin backwards, the new points forwards). Nothing
        // is counted: the window's place comes from the detector state, so the read does not grow with the history.
        Assert.Equal(["ix_results_benchmark_id_measure_id_profile_id_branch_id_series"],
            nodes.Where(n => n.Index?.StartsWith("ix_results") == true || n.Index == "pk_results").Select(n => n.Index).Distinct().ToList());
        Assert.DoesNotContain(nodes, n => n.Type == "Aggregate");
    }

    private static void AssertNoSeqScanOfResults(JsonElement plan)
    {
        var seq = Nodes(plan).Where(n => n.Type == "Seq Scan" && n.Relation == "results").ToList();
        Assert.True(seq.Count == 0, "sequential scan of results in:\n" + plan);
    }

    private sealed record Node(string Type, string? Relation, string? Index);

    private static IEnumerable<Node> Nodes(JsonElement plan)
    {
        var stack = new Stack<JsonElement>([plan[0].GetProperty("Plan")]);
        while (stack.Count > 0)
        {
            var n = stack.Pop();
            yield return new Node(n.GetProperty("Node Type").GetString()!,
                n.TryGetProperty("Relation Name", out var r) ? r.GetString() : null,
                n.TryGetProperty("Index Name", out var i) ? i.GetString() : null);
            if (n.TryGetProperty("Plans", out var children))
                foreach (var child in children.EnumerateArray()) stack.Push(child);
        }
    }

    private async Task<JsonElement> ExplainAsync(string sql, params object[] args)
    {
        await using var conn = await OpenAsync();
        await using var cmd = new NpgsqlCommand("EXPLAIN (FORMAT JSON) " + sql, conn);
        foreach (var a in args) cmd.Parameters.Add(new NpgsqlParameter { Value = a });
        var json = (string)(await cmd.ExecuteScalarAsync())!;
        return JsonDocument.Parse(json).RootElement.Clone();
    }

    private async Task<NpgsqlConnection> OpenAsync()
    {
        var conn = new NpgsqlConnection(_db.ConnectionString);
        await conn.OpenAsync();
        return conn;
    }

    private static async Task ExecAsync(NpgsqlConnection conn, string sql)
    {
        await using var cmd = new NpgsqlCommand(sql, conn) { CommandTimeout = 300 };
        await cmd.ExecuteNonQueryAsync();
    }

    private static async Task<long> ScalarAsync(NpgsqlConnection conn, string sql)
    {
        await using var cmd = new NpgsqlCommand(sql, conn);
        return Convert.ToInt64(await cmd.ExecuteScalarAsync(), System.Globalization.CultureInfo.InvariantCulture);
    }

    public async Task DisposeAsync() => await _db.DisposeAsync();
}
