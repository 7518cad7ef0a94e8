using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Engines;
using Npgsql;
using NpgsqlTypes;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;
using PerfService.Core.Results;
using PerfService.Ingestion;

namespace PerfService.Benchmarks;

/// <summary>
/// Storing a run of 10,000 results with 20 samples each (target: under 1 s end to end), against a plain binary COPY
/// of the same rows into a table with the same columns and indexes, measured in the same run (aim: at least half of
/// COPY's speed). The baseline's table is emptied before each iteration, as the goal was first measured; the results
/// table grows by a run each iteration, and a B-tree takes a run's 10,000 keys more slowly once it holds earlier runs'
/// (each series' new key goes after its older ones, spread over the whole index). The second COPY keeps its rows and
/// grows as results does, so the report also shows what is the ingest's own cost and what is the table's size.
/// Needs PERF_BENCH_DB (./perf bench sets it to a fresh database on the private cluster).
/// </summary>
[Config(typeof(IngestBenchConfig))]
public class IngestBenchmarks
{
    private NpgsqlDataSource _db = null!;
    private RunWriter _writer = null!;
    private ParseResult _parsed = null!;
    private long _projectId;
    private int _run;

    [GlobalSetup]
    public async Task Setup()
    {
        var cs = await BenchDatabase.MigratedAsync();
        _db = NpgsqlDataSource.Create(cs);
        _writer = new RunWriter(_db, TimeProvider.System);
        await using (var cmd = _db.CreateCommand("""
            INSERT INTO projects (slug, name, default_branch, is_public, created_at) VALUES ('bench', 'bench', 'main', true, now())
            ON CONFLICT (slug) DO UPDATE SET name = excluded.name RETURNING id
            """))
            _projectId = (long)(await cmd.ExecuteScalarAsync())!;
        await using (var cmd = _db.CreateCommand("""
            DROP TABLE IF EXISTS copy_target; CREATE TABLE copy_target (LIKE results INCLUDING ALL);
            DROP TABLE IF EXISTS copy_growing; CREATE TABLE copy_growing (LIKE results INCLUDING ALL);
            """))
            await cmd.ExecuteNonQueryAsync();

        var random = new Random(7);
        var results = Enumerable.Range(0, 10_000).Select(i =>
        {
            var samples = Enumerable.Range(0, 20).Select(_ => 100 + random.NextDouble()).ToArray();
            return new BenchmarkResult
            {
                Name = $"Bench.Suite{i / 100}.Method{i % 100}", Parameters = [new("N", (i % 7).ToString())], Job = ".NET 10.0",
                Measure = Measures.Time, Unit = "ns", Value = samples.Average(), Samples = samples,
                Summary = new Summary { Mean = samples.Average(), Median = samples[10], StdDev = 0.3, Min = samples.Min(), Max = samples.Max(), N = 20 },
            };
        }).ToList();
        _parsed = new ParseResult("json", results, new Dictionary<string, string>(), []);
    }

    [IterationSetup(Target = nameof(PlainCopy))]
    public void Truncate()
    {
        using var cmd = _db.CreateCommand("TRUNCATE copy_target");
        cmd.ExecuteNonQuery();
    }

    [Benchmark(Baseline = true)]
    public Task PlainCopy() => CopyAsync("copy_target", 1);

    [Benchmark]
    public Task PlainCopyIntoAGrowingTable() => CopyAsync("copy_growing", ++_run);

    private async Task CopyAsync(string table, long runId)
    {
        await using var conn = await _db.OpenConnectionAsync();
        await using var copy = await conn.BeginBinaryImportAsync($"""
            COPY {table} (run_id, benchmark_id, measure_id, profile_id, series_at, value, mean, median, std_dev, min, max, sample_count, samples)
            FROM STDIN (FORMAT BINARY)
            """);
        var now = DateTimeOffset.UtcNow;
        for (var i = 0; i < _parsed.Results.Count; i++)
        {
            var r = _parsed.Results[i];
            await copy.StartRowAsync();
            await copy.WriteAsync(runId, NpgsqlDbType.Bigint);
            await copy.WriteAsync((long)i, NpgsqlDbType.Bigint);
            await copy.WriteAsync(1L, NpgsqlDbType.Bigint);
            await copy.WriteAsync(1L, NpgsqlDbType.Bigint);
            await copy.WriteAsync(now, NpgsqlDbType.TimestampTz);
            foreach (var v in new[] { r.Value, r.Summary!.Mean, r.Summary.Median, r.Summary.StdDev, r.Summary.Min, r.Summary.Max })
                await copy.WriteAsync(v!.Value, NpgsqlDbType.Double);
            await copy.WriteAsync(20, NpgsqlDbType.Integer);
            await copy.WriteAsync((double[])r.Samples!, NpgsqlDbType.Array | NpgsqlDbType.Double);
        }
        await copy.CompleteAsync();
    }

    [Benchmark]
    public async Task<long> IngestRunOf10000Results()
    {
        var commit = (++_run).ToString("x8") + Guid.NewGuid().ToString("N")[..8];
        var metadata = new RunMetadata { Project = "bench", Commit = commit, Branch = "main", Profile = "m1-pro", Suite = "bench" };
        var created = await _writer.WriteAsync(new RunWrite(_projectId, "bench", 3, metadata, null, [new Artifact("r.json", new byte[1024])], _parsed, new RunPoster(null, null, true, true), true), default);
        return created.RunId;
    }
}

/// <summary>
/// One job for both methods, one invocation per iteration: the COPY baseline needs its table emptied before each
/// iteration, and a ratio is only computed between methods of the same job. 60 iterations: an iteration takes under
/// 0.1 s, and with 20, four slow iterations of the baseline (94–162 ms against a median of 45 ms) put its mean 30 %
/// above its median and the ratio's standard deviation at 0.8.
/// </summary>
public sealed class IngestBenchConfig : ManualConfig
{
    public IngestBenchConfig()
    {
        AddJob(Job.Default.WithStrategy(RunStrategy.Monitoring).WithWarmupCount(5).WithIterationCount(60).WithInvocationCount(1).WithUnrollFactor(1));
        AddDiagnoser(MemoryDiagnoser.Default);
        AddExporter(JsonExporter.Full);
    }
}
