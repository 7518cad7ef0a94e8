using System.IO.Compression;
using Npgsql;

namespace PerfService.IntegrationTests.Ingestion;

/// <summary>
/// The fast ingest path (benchmarks looked up before insert, results' references checked per statement) keeps what the
/// slow one guaranteed: a repeat with the key returns the first run, a failure at the last step leaves nothing behind,
/// the raw upload is stored, and results can only reference rows that exist (and go when those go).
/// </summary>
public class LargeRunIngestTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private static RunMetadata Meta(string project, string commit) =>
        new() { Project = project, Commit = commit, Branch = "main", Profile = "m1-pro", Suite = "large", Format = "json" };

    private static byte[] Results(int count, int firstNew = 0) =>
        Generic.Times(Enumerable.Range(firstNew, count).Select(i => ($"Large.Bench{i}", Generic.Around(100 + i, 0.02, 20, i))).ToArray());

    [Fact]
    public async Task A_run_of_2000_results_is_stored_once_with_its_artifact_and_a_repeat_returns_it()
    {
        await app.CreateProjectAsync("large-once");
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        var bytes = Results(2000);

        var first = await IngestionTests.Post(client, Meta("large-once", "aa00000001"), "large-key", ("results.json", bytes));
        Assert.Equal(HttpStatusCode.Created, first.StatusCode);
        var created = (await first.Content.ReadFromJsonAsync<RunCreated>())!;
        Assert.Equal(2000, created.Results);
        Assert.Equal(2000, created.Benchmarks);

        var again = await IngestionTests.Post(client, Meta("large-once", "aa00000001"), "large-key", ("results.json", bytes));
        var repeat = (await again.Content.ReadFromJsonAsync<RunCreated>())!;
        Assert.Equal(HttpStatusCode.OK, again.StatusCode);
        Assert.True(repeat.Duplicate);
        Assert.Equal(created.RunId, repeat.RunId);

        Assert.Equal(2000L, await ScalarAsync<long>($"SELECT count(*) FROM results WHERE run_id = {created.RunId}"));
        Assert.Equal(20L, await ScalarAsync<long>($"SELECT min(cardinality(samples))::bigint FROM results WHERE run_id = {created.RunId}"));
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.slug = 'large-once'"));
        var gzip = await ScalarAsync<byte[]>($"SELECT content_gzip FROM artifacts WHERE run_id = {created.RunId} AND path = 'results.json'");
        Assert.Equal(bytes, Gunzip(gzip));
    }

    [Fact]
    public async Task A_second_run_reuses_known_benchmarks_and_adds_only_new_ones()
    {
        await app.CreateProjectAsync("large-reuse");
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        var one = (await (await IngestionTests.Post(client, Meta("large-reuse", "bb00000001"), null, ("r.json", Results(1500)))).Content.ReadFromJsonAsync<RunCreated>())!;
        // 1,000 known benchmarks and 1,000 new ones.
        var two = await IngestionTests.Post(client, Meta("large-reuse", "bb00000002"), null, ("r.json", Results(2000, firstNew: 500)));
        Assert.Equal(HttpStatusCode.Created, two.StatusCode);
        var second = (await two.Content.ReadFromJsonAsync<RunCreated>())!;

        Assert.Equal(2500L, await ScalarAsync<long>("SELECT count(*) FROM benchmarks b JOIN suites s ON s.id = b.suite_id JOIN projects p ON p.id = s.project_id WHERE p.slug = 'large-reuse'"));
        // The shared benchmarks are the same rows in both runs.
        Assert.Equal(1000L, await ScalarAsync<long>($"""
            SELECT count(*) FROM results a JOIN results b ON b.benchmark_id = a.benchmark_id
            WHERE a.run_id = {one.RunId} AND b.run_id = {second.RunId}
            """));
    }

    [Fact]
    public async Task A_failure_after_the_results_are_copied_leaves_nothing_and_the_retry_stores_everything()
    {
        await app.CreateProjectAsync("large-atomic");
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        // The artifacts COPY comes after the results COPY: make it fail, as a full disk or a lost connection would.
        await ExecAsync("""
            CREATE FUNCTION fail_artifacts() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full (test)'; END $$;
            CREATE TRIGGER fail_artifacts BEFORE INSERT ON artifacts FOR EACH ROW EXECUTE FUNCTION fail_artifacts();
            """);
        try
        {
            var failed = await IngestionTests.Post(client, Meta("large-atomic", "cc00000001"), "atomic-key", ("r.json", Results(2000)));
            Assert.True((int)failed.StatusCode >= 500, $"expected a server error, got {failed.StatusCode}");
        }
        finally
        {
            await ExecAsync("DROP TRIGGER fail_artifacts ON artifacts; DROP FUNCTION fail_artifacts()");
        }
        const string Stored = """
            SELECT (SELECT count(*) FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.slug = 'large-atomic')
                 + (SELECT count(*) FROM commits c JOIN projects p ON p.id = c.project_id WHERE p.slug = 'large-atomic')
                 + (SELECT count(*) FROM benchmarks b JOIN suites s ON s.id = b.suite_id JOIN projects p ON p.id = s.project_id WHERE p.slug = 'large-atomic')
                 + (SELECT count(*) FROM results x WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = x.run_id))
            """;
        Assert.Equal(0L, await ScalarAsync<long>(Stored));

        var retry = await IngestionTests.Post(client, Meta("large-atomic", "cc00000001"), "atomic-key", ("r.json", Results(2000)));
        Assert.Equal(HttpStatusCode.Created, retry.StatusCode);
        var created = (await retry.Content.ReadFromJsonAsync<RunCreated>())!;
        Assert.Equal(2000L, await ScalarAsync<long>($"SELECT count(*) FROM results WHERE run_id = {created.RunId}"));
        Assert.Equal(1L, await ScalarAsync<long>($"SELECT count(*) FROM artifacts WHERE run_id = {created.RunId}"));
    }

    [Fact]
    public async Task Results_reference_only_existing_rows_and_go_with_their_run_and_benchmark()
    {
        await app.CreateProjectAsync("large-refs");
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        var run = (await (await IngestionTests.Post(client, Meta("large-refs", "dd00000001"), null, ("r.json", Results(50)))).Content.ReadFromJsonAsync<RunCreated>())!;
        // The deletes below are an operator's, by hand: let the run's background analysis finish first, or a delete and
        // the analysis (which writes rows referencing the same benchmarks) may deadlock, and PostgreSQL aborts one of them.
        await AnalysedAsync(run.RunId);
        foreach (var (runId, benchmarkId, measureId) in new[] { ("-1", "x.benchmark_id", "x.measure_id"), ("x.run_id", "-2", "x.measure_id"), ("x.run_id", "x.benchmark_id", "-3") })
        {
            var e = await Assert.ThrowsAsync<PostgresException>(() => ExecAsync($"""
                INSERT INTO results (run_id, benchmark_id, measure_id, profile_id, series_at, sample_count)
                SELECT {runId}, {benchmarkId}, {measureId}, x.profile_id, x.series_at, 0 FROM results x WHERE x.run_id = {run.RunId} LIMIT 1
                """));
            Assert.Equal(PostgresErrorCodes.ForeignKeyViolation, e.SqlState);
        }
        var update = await Assert.ThrowsAsync<PostgresException>(() => ExecAsync($"UPDATE results SET benchmark_id = -5 WHERE id = (SELECT min(id) FROM results WHERE run_id = {run.RunId})"));
        Assert.Equal(PostgresErrorCodes.ForeignKeyViolation, update.SqlState);

        var benchmark = await ScalarAsync<long>($"SELECT min(benchmark_id) FROM results WHERE run_id = {run.RunId}");
        await ExecAsync($"DELETE FROM benchmarks WHERE id = {benchmark}");
        Assert.Equal(49L, await ScalarAsync<long>($"SELECT count(*) FROM results WHERE run_id = {run.RunId}"));
        // The service remembered that benchmark's id from the first run: the next run of the suite must not reference it.
        var next = await IngestionTests.Post(client, Meta("large-refs", "dd00000002"), null, ("r.json", Results(50)));
        Assert.Equal(HttpStatusCode.Created, next.StatusCode);
        var stored = (await next.Content.ReadFromJsonAsync<RunCreated>())!;
        Assert.Equal(50L, await ScalarAsync<long>($"SELECT count(*) FROM results x JOIN benchmarks b ON b.id = x.benchmark_id WHERE x.run_id = {stored.RunId}"));
        await AnalysedAsync(stored.RunId);
        await ExecAsync($"DELETE FROM runs WHERE id = {run.RunId}");
        Assert.Equal(0L, await ScalarAsync<long>($"SELECT count(*) FROM results WHERE run_id = {run.RunId}"));
    }

    private static byte[] Gunzip(byte[] gzip)
    {
        using var input = new GZipStream(new MemoryStream(gzip), CompressionMode.Decompress);
        using var output = new MemoryStream();
        input.CopyTo(output);
        return output.ToArray();
    }

    private async Task AnalysedAsync(long runId) =>
        Assert.True(await Eventually.WaitAsync(() => ScalarAsync<bool>($"SELECT analysed_at IS NOT NULL FROM runs WHERE id = {runId}"), done => done),
            $"run {runId} was never analysed");

    private Task ExecAsync(string sql) => app.Database.ExecAsync(sql);

    private Task<T> ScalarAsync<T>(string sql) => app.Database.ScalarAsync<T>(sql);
}
