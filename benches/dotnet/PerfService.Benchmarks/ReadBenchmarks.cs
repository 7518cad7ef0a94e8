using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Npgsql;

namespace PerfService.Benchmarks;

/// <summary>
/// The history API against a seeded PostgreSQL of 5 million results (50 benchmarks × 2 profiles × 50,000 commits):
/// one series of 10,000 points (target: under 50 ms) in the default shape and as columns (what the dashboard reads),
/// and the project overview (target: under 200 ms), through the real HTTP pipeline in-process. Seeding takes a few
/// minutes; run it alone: ./perf bench --filter '*Read*'.
/// </summary>
[Config(typeof(BenchConfig))]
[SimpleJob(RunStrategy.Throughput, warmupCount: 3, iterationCount: 15)]
public class ReadBenchmarks
{
    private WebApplicationFactory<Program> _app = null!;
    private HttpClient _http = null!;
    private long _benchmarkId;

    [GlobalSetup]
    public async Task Setup()
    {
        var cs = await BenchDatabase.MigratedAsync();
        await using var db = NpgsqlDataSource.Create(cs);
        await using (var exists = db.CreateCommand("SELECT count(*) FROM results"))
            if ((long)(await exists.ExecuteScalarAsync())! < 5_000_000) await SeedAsync(db);
        await using (var id = db.CreateCommand("SELECT min(id) FROM benchmarks WHERE key = 'Read.B1'"))
            _benchmarkId = (long)(await id.ExecuteScalarAsync())!;
        _app = new WebApplicationFactory<Program>().WithWebHostBuilder(b => b.UseSetting("ConnectionStrings:Perf", cs).UseSetting("RateLimit:PermitPerMinute", "1000000"));
        _http = _app.CreateClient();
        (await _http.GetAsync(SeriesUrl)).EnsureSuccessStatusCode();
    }

    private string SeriesUrl => $"/api/v1/projects/read/series?benchmark={_benchmarkId}&measure=time&profile=m1-pro&branch=main&limit=10000";

    [Benchmark]
    public async Task<int> Series10000Points() => (await _http.GetByteArrayAsync(SeriesUrl)).Length;

    [Benchmark]
    public async Task<int> Series10000PointsColumns() => (await _http.GetByteArrayAsync(SeriesUrl + "&format=columns")).Length;

    [Benchmark]
    public async Task<int> ProjectOverview() => (await _http.GetByteArrayAsync("/api/v1/projects/read/overview")).Length;

    [GlobalCleanup]
    public void Cleanup()
    {
        _http.Dispose();
        _app.Dispose();
    }

    private static async Task SeedAsync(NpgsqlDataSource db)
    {
        Console.WriteLine("// seeding 5,000,000 results (a few minutes)...");
        await using var cmd = db.CreateCommand("""
            INSERT INTO projects (slug, name, default_branch, is_public, created_at) VALUES ('read', 'read', 'main', true, now()) ON CONFLICT DO NOTHING;
            INSERT INTO branches (project_id, name) SELECT id, 'main' FROM projects WHERE slug = 'read' ON CONFLICT DO NOTHING;
            INSERT INTO suites (project_id, name, harness) SELECT id, 'read', 'json' FROM projects WHERE slug = 'read' ON CONFLICT DO NOTHING;
            INSERT INTO measures (name, unit, direction) VALUES ('time', 'ns', 'LowerIsBetter') ON CONFLICT DO NOTHING;
            INSERT INTO benchmarks (suite_id, key, name, parameters)
              SELECT s.id, 'Read.B' || g, 'Read.B' || g, '{}' FROM suites s, generate_series(1, 50) g WHERE s.name = 'read' ON CONFLICT DO NOTHING;
            INSERT INTO commits (project_id, sha, committed_at, first_seen_at)
              SELECT p.id, md5(g::text), timestamptz '2025-01-01' + g * interval '10 minutes', now() FROM projects p, generate_series(1, 50000) g
              WHERE p.slug = 'read' ON CONFLICT DO NOTHING;
            INSERT INTO runs (project_id, commit_id, branch_id, profile_id, suite_id, role, round, format, profile_mismatch, environment, created_at)
              SELECT c.project_id, c.id, b.id, pr.id, s.id, 'head', 0, 'json', false, '{}', c.committed_at
              FROM commits c JOIN projects p ON p.id = c.project_id AND p.slug = 'read'
              JOIN branches b ON b.project_id = p.id JOIN suites s ON s.project_id = p.id
              CROSS JOIN (SELECT id FROM profiles WHERE name IN ('i7-4790k', 'm1-pro')) pr;
            INSERT INTO results (run_id, benchmark_id, measure_id, profile_id, branch_id, series_at, value, median, ci_lower, ci_upper, sample_count)
              SELECT r.id, bm.id, m.id, r.profile_id, r.branch_id, r.created_at, 100 + random(), 100, 99, 101, 20
              FROM runs r JOIN suites s ON s.id = r.suite_id AND s.name = 'read' JOIN benchmarks bm ON bm.suite_id = s.id
              CROSS JOIN (SELECT id FROM measures WHERE name = 'time' AND unit = 'ns') m;
            ANALYZE;
            """);
        cmd.CommandTimeout = 3600;
        await cmd.ExecuteNonQueryAsync();
    }
}
