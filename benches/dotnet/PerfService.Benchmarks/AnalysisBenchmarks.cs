using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;
using ResultSummary = PerfService.Core.Results.Summary;
using BenchmarkDotNet.Running;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;
using PerfService.Core.Results;
using PerfService.Ingestion;
using PerfService.Analysis;

namespace PerfService.Benchmarks;

/// <summary>
/// The background analysis of main-branch runs (targets, change-point update of every series they touched) for runs
/// of 100, 1,000 and 10,000 results, each against a history of <see cref="HistoryRuns"/> earlier runs of the same
/// benchmarks that were analysed first, so every series is updated incrementally as in steady state. Each iteration
/// queues <see cref="QueuedRuns"/> new runs and drains the analysis queue as a consumer does: <c>one-by-one</c> with
/// batching off (<c>Background:AnalysisBatchRuns</c> = 1, one series update per run, as before batching); <c>batched</c>
/// takes all of them in one batch (one update per series, its points coalesced). The figure that matters
/// is the "Series/s" column: series points analysed per second. Needs PERF_BENCH_DB.
/// </summary>
[Config(typeof(AnalysisBenchConfig))]
public class AnalysisBenchmarks
{
    public const int HistoryRuns = 20;
    public const int QueuedRuns = 8;

    [Params(100, 1_000, 10_000)]
    public int Results { get; set; }

    [Params("one-by-one", "batched")]
    public string Mode { get; set; } = "batched";

    /// <summary><c>kept</c>: series states stay in memory between analyses (the default); <c>none</c>: every update
    /// decodes its state and estimates the noise afresh (<c>Background:AnalysisCachedSeries</c> = 0), the baseline.</summary>
    [Params("kept", "none")]
    public string States { get; set; } = "kept";

    private WebApplicationFactory<Program> _app = null!;
    private RunWriter _writer = null!;
    private NpgsqlDataSource _db = null!;
    private long _projectId;
    private long _profileId;
    private string _slug = "";
    private int _commit;

    [GlobalSetup]
    public async Task Setup()
    {
        var cs = await BenchDatabase.MigratedAsync();
        _db = NpgsqlDataSource.Create(cs);
        _writer = new RunWriter(_db, TimeProvider.System);
        // The service's own wiring (the analysis consumer, EF context, alert service).
        // In process, the factory would look for the service's content root next to the solution; pages are not needed.
        if (Environment.GetEnvironmentVariable("ASPNETCORE_TEST_CONTENTROOT_PERFSERVICE") is null)
            Environment.SetEnvironmentVariable("ASPNETCORE_TEST_CONTENTROOT_PERFSERVICE", AppContext.BaseDirectory);
        // The web role only: no consumer of its own competes for the queued runs; each iteration drains the queue itself.
        _app = new WebApplicationFactory<Program>().WithWebHostBuilder(b => b.UseSetting("ConnectionStrings:Perf", cs)
            .UseSetting("Background:Roles", "web").UseSetting("Background:AnalysisBatchRuns", Mode == "batched" ? "32" : "1")
            .UseSetting("Background:AnalysisCachedSeries", States == "kept" ? "8192" : "0"));
        _ = _app.Services;
        _slug = $"analysis-{Results}-{Mode}-{States}-{DateTime.UtcNow:HHmmss}";
        await using (var cmd = _db.CreateCommand($"INSERT INTO projects (slug, name, default_branch, is_public, created_at) VALUES ('{_slug}', 'analysis', 'main', true, now()) RETURNING id"))
            _projectId = (long)(await cmd.ExecuteScalarAsync())!;
        await using (var cmd = _db.CreateCommand("SELECT id FROM profiles WHERE name = 'm1-pro'"))
            _profileId = (long)(await cmd.ExecuteScalarAsync())!;
        Console.WriteLine($"// history: {HistoryRuns} runs of {Results} results, each analysed");
        for (var i = 0; i < HistoryRuns; i++)
        {
            await WriteRunAsync();
            await DrainAsync();
        }
    }

    [IterationSetup]
    public void NextRuns()
    {
        for (var i = 0; i < QueuedRuns; i++) WriteRunAsync().GetAwaiter().GetResult();
    }

    [Benchmark(OperationsPerInvoke = QueuedRuns)]
    public Task AnalyseRun() => DrainAsync();

    [GlobalCleanup]
    public void Cleanup()
    {
        _app.Dispose();
        _db.Dispose();
    }

    private Task DrainAsync() => _app.Services.GetRequiredService<AnalysisConsumer>().DrainAsync(CancellationToken.None);

    /// <summary>Stores a run and puts it in the analysis queue, as ingest does.</summary>
    private async Task<long> WriteRunAsync()
    {
        var runId = await StoreRunAsync();
        await using var cmd = _db.CreateCommand($"INSERT INTO analysis_queue (run_id, queued_at, failed_batches) VALUES ({runId}, now(), 0)");
        await cmd.ExecuteNonQueryAsync();
        return runId;
    }

    private async Task<long> StoreRunAsync()
    {
        var commit = ++_commit;
        var random = new Random(commit);
        var results = Enumerable.Range(0, Results).Select(i =>
        {
            var samples = Enumerable.Range(0, 10).Select(_ => 100 + (i % 50) + random.NextDouble()).ToArray();
            return new BenchmarkResult
            {
                Name = $"Analysis.Suite{i / 100}.Method{i % 100}", Job = ".NET 10.0", Measure = Measures.Time, Unit = "ns",
                Value = samples.Average(), Samples = samples,
                Summary = new ResultSummary { Mean = samples.Average(), Median = samples[5], StdDev = 0.3, Min = samples.Min(), Max = samples.Max(), N = 10 },
            };
        }).ToList();
        var metadata = new RunMetadata
        {
            Project = _slug, Commit = commit.ToString("x8") + "0000000000000000000000000000000a", CommittedAt = new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero).AddHours(commit),
            Branch = "main", Profile = "m1-pro", Suite = "analysis",
        };
        var parsed = new ParseResult("json", results, new Dictionary<string, string>(), []);
        return (await _writer.WriteAsync(new RunWrite(_projectId, _slug, _profileId, metadata, null, [new Artifact("r.json", new byte[64])], parsed, new RunPoster(null, null, true, true), true), default)).RunId;
    }
}

/// <summary>
/// One job: each iteration analyses one fresh run (Monitoring, one invocation), in process — the cost is in the
/// database round trips and the detector, and a separate build of the boilerplate timed out (2 min) on a busy 2-core
/// machine. <see cref="BenchConfig"/>'s diagnoser and export, plus the throughput column: series updated per second.
/// </summary>
public sealed class AnalysisBenchConfig : ManualConfig
{
    public AnalysisBenchConfig()
    {
        AddJob(Job.Default.WithStrategy(RunStrategy.Monitoring).WithWarmupCount(1).WithIterationCount(5).WithInvocationCount(1).WithUnrollFactor(1)
            // 8 runs of 10,000 results one by one take minutes per iteration on a busy machine: past the default timeout.
            .WithToolchain(new BenchmarkDotNet.Toolchains.InProcess.Emit.InProcessEmitToolchain(TimeSpan.FromMinutes(60), logOutput: true)));
        AddDiagnoser(BenchmarkDotNet.Diagnosers.MemoryDiagnoser.Default);
        AddExporter(BenchmarkDotNet.Exporters.Json.JsonExporter.Full);
        AddColumn(new SeriesPerSecondColumn());
    }

    private sealed class SeriesPerSecondColumn : IColumn
    {
        public string Id => "SeriesPerSecond";
        public string ColumnName => "Series/s";
        public bool AlwaysShow => true;
        public ColumnCategory Category => ColumnCategory.Custom;
        public int PriorityInCategory => 0;
        public bool IsNumeric => true;
        public UnitType UnitType => UnitType.Dimensionless;
        public string Legend => "Series points analysed per second (results of a run / mean time per run)";

        public string GetValue(BenchmarkDotNet.Reports.Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, SummaryStyle.Default);

        public string GetValue(BenchmarkDotNet.Reports.Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
        {
            var mean = summary[benchmarkCase]?.ResultStatistics?.Mean;
            // The mean is per run (OperationsPerInvoke), so results per run / mean is series points analysed per second.
            var results = benchmarkCase.Parameters[nameof(AnalysisBenchmarks.Results)];
            return mean is > 0 && results is int n ? (n / (mean.Value / 1e9)).ToString("N0", System.Globalization.CultureInfo.InvariantCulture) : "-";
        }

        public bool IsAvailable(BenchmarkDotNet.Reports.Summary summary) => true;

        public bool IsDefault(BenchmarkDotNet.Reports.Summary summary, BenchmarkCase benchmarkCase) => false;
    }
}
