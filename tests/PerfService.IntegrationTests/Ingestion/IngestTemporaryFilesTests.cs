using Npgsql;
using PerfService.Core.Parsing;
using PerfService.Core.Results;
using PerfService.Ingestion;

namespace PerfService.IntegrationTests.Ingestion;

/// <summary>
/// A run of 10,000 results with 20 samples each is stored without PostgreSQL writing a temporary file: the reference
/// check's transition table (every new row) fits the memory the ingest transaction sizes for it. Before that, each such
/// upload spilled 3 MB to disk and read it back. Its own database: PostgreSQL counts temporary files per database, and
/// nothing else may run in it while the count is read.
/// </summary>
public sealed class IngestTemporaryFilesTests : IAsyncLifetime
{
    private TestDatabase _db = null!;

    public async Task InitializeAsync() => _db = await TestDatabase.CreateAsync();

    public async Task DisposeAsync() => await _db.DisposeAsync();

    [Fact]
    public async Task A_run_of_10000_results_with_samples_is_stored_without_a_temporary_file()
    {
        var projectId = await _db.ScalarAsync<long>("""
            INSERT INTO projects (slug, name, default_branch, is_public, created_at) VALUES ('spill', 'spill', 'main', true, now()) RETURNING id
            """);
        var random = new Random(3);
        var results = Enumerable.Range(0, 10_000).Select(i =>
        {
            var samples = Enumerable.Range(0, 20).Select(_ => 100 + random.NextDouble()).ToArray();
            return new BenchmarkResult { Name = $"Spill.Bench{i}", Measure = Measures.Time, Unit = "ns", Value = samples.Average(), Samples = samples };
        }).ToList();
        var before = await TemporaryFilesAsync();

        // Unpooled: the session ends with the write, and PostgreSQL publishes a session's statistics when it ends.
        await using var source = NpgsqlDataSource.Create(new NpgsqlConnectionStringBuilder(_db.ConnectionString) { Pooling = false }.ConnectionString);
        var metadata = new RunMetadata { Project = "spill", Commit = "5b111aaa01", Branch = "main", Profile = "m1-pro", Suite = "spill" };
        var created = await new RunWriter(source, TimeProvider.System).WriteAsync(new RunWrite(projectId, "spill", 3, metadata, null, [new Artifact("r.json", new byte[64])],
            new ParseResult("json", results, new Dictionary<string, string>(), []), new RunPoster(null, null, true, true), false), default);

        Assert.Equal(10_000L, await _db.ScalarAsync<long>($"SELECT count(*) FROM results WHERE run_id = {created.RunId} AND cardinality(samples) = 20"));
        // The statistics arrive a moment after the session ends: wait until they show the 10,000 inserted rows.
        var after = await Eventually.WaitAsync(TemporaryFilesAsync, now => now.Inserted >= before.Inserted + 10_000, TimeSpan.FromSeconds(30));
        Assert.True(after.Inserted >= before.Inserted + 10_000, "PostgreSQL's statistics never showed the ingest's rows");
        Assert.Equal(before.Files, after.Files);
    }

    private async Task<(long Files, long Inserted)> TemporaryFilesAsync()
    {
        var row = await _db.QueryAsync("SELECT temp_files, tup_inserted FROM pg_stat_database WHERE datname = current_database()",
            r => (r.GetInt64(0), r.GetInt64(1)));
        return row.Single();
    }
}
