using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Npgsql;

namespace PerfService.Benchmarks;

/// <summary>
/// The history API on the database `./perf seed-history` builds (50 million results: 2,000 benchmarks × 3 profiles ×
/// 8,334 commits), through the real HTTP pipeline in process: a series of 10,002 points (3 profiles × 3,334), the
/// overview, and the comparison of two runs of 2,000 benchmarks. The baseline is the bare SQL the series endpoint
/// runs for the same points (three index range scans, every row read), so the ratio is what the endpoint adds. Needs
/// PERF_BENCH_HISTORY_DB, a connection string to that database (it is read, never written; migrate it first).
/// </summary>
[Config(typeof(BenchConfig))]
[SimpleJob(RunStrategy.Throughput, warmupCount: 3, iterationCount: 20)]
public class HistoryReadBenchmarks
{
    private const string Points = """
        SELECT r.run_id, r.series_at, r.value, r.ci_lower, r.ci_upper, r.sample_count
        FROM results r
        WHERE r.benchmark_id = $1 AND r.measure_id = $2 AND r.profile_id = $3 AND r.branch_id = $4 AND r.value IS NOT NULL
        ORDER BY r.series_at, r.run_id
        LIMIT 3335
        """;

    private NpgsqlDataSource _db = null!;
    private WebApplicationFactory<Program> _app = null!;
    private HttpClient _http = null!;
    private long _benchmark, _measure, _branch;
    private long[] _profiles = [];
    private string _compare = "";

    [GlobalSetup]
    public async Task Setup()
    {
        var cs = Environment.GetEnvironmentVariable("PERF_BENCH_HISTORY_DB")
            ?? throw new InvalidOperationException("PERF_BENCH_HISTORY_DB is not set: point it at a database built by ./perf seed-history");
        _db = NpgsqlDataSource.Create(cs);
        await using (var cmd = _db.CreateCommand("""
            SELECT (SELECT min(id) FROM benchmarks), (SELECT min(id) FROM measures WHERE name = 'time'), (SELECT min(id) FROM branches),
                   (SELECT array_agg(id ORDER BY id) FROM profiles),
                   (SELECT array_agg(id) FROM (SELECT id FROM runs WHERE profile_id = (SELECT min(id) FROM profiles) ORDER BY id DESC LIMIT 2) x)
            """))
        await using (var r = await cmd.ExecuteReaderAsync())
        {
            await r.ReadAsync();
            (_benchmark, _measure, _branch, _profiles) = (r.GetInt64(0), r.GetInt64(1), r.GetInt64(2), r.GetFieldValue<long[]>(3));
            var runs = r.GetFieldValue<long[]>(4);
            _compare = $"/api/v1/projects/history/compare?base=run:{runs.Min()}&head=run:{runs.Max()}";
        }
        _app = new WebApplicationFactory<Program>().WithWebHostBuilder(b => b
            .UseSetting("ConnectionStrings:Perf", cs).UseSetting("RateLimit:PermitPerMinute", "1000000").UseSetting("Background:Roles", "web"));
        _http = _app.CreateClient();
        (await _http.GetAsync(SeriesUrl)).EnsureSuccessStatusCode();
    }

    private string SeriesUrl => $"/api/v1/projects/history/series?benchmark={_benchmark}&measure=time&limit=3334";

    [Benchmark(Baseline = true)]
    public async Task<int> SeriesSqlOnly()
    {
        var rows = 0;
        await using var batch = _db.CreateBatch();
        foreach (var profile in _profiles)
        {
            var command = new NpgsqlBatchCommand(Points);
            foreach (var value in new object[] { _benchmark, _measure, profile, _branch }) command.Parameters.Add(new NpgsqlParameter { Value = value });
            batch.BatchCommands.Add(command);
        }
        await using var reader = await batch.ExecuteReaderAsync();
        do
            while (await reader.ReadAsync()) rows += reader.GetInt32(5);
        while (await reader.NextResultAsync());
        return rows;
    }

    [Benchmark]
    public async Task<int> Series10002Points() => (await _http.GetByteArrayAsync(SeriesUrl)).Length;

    [Benchmark]
    public async Task<int> Series10002PointsColumns() => (await _http.GetByteArrayAsync(SeriesUrl + "&format=columns")).Length;

    [Benchmark]
    public async Task<int> Overview() => (await _http.GetByteArrayAsync("/api/v1/projects/history/overview")).Length;

    [Benchmark]
    public async Task<int> CompareTwoRunsOf2000() => (await _http.GetByteArrayAsync(_compare)).Length;

    [GlobalCleanup]
    public async Task Cleanup()
    {
        _http.Dispose();
        await _app.DisposeAsync();
        await _db.DisposeAsync();
    }
}
