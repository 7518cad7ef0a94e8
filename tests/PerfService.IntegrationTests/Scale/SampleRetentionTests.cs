using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using PerfService.Background;
using PerfService.IntegrationTests.Ingestion;

namespace PerfService.IntegrationTests.Scale;

/// <summary>
/// Sample retention through the real job: runs older than Retention:SampleDays lose their samples and keep their
/// summary (filled from the samples where the harness gave none), newer runs keep everything, a second pass finds
/// nothing, and a bad setting stops the service at start.
/// </summary>
public class SampleRetentionTests(SampleRetentionTests.App app) : IClassFixture<SampleRetentionTests.App>
{
    public sealed class App : PerfServiceApp
    {
        protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?>
        {
            ["Retention:SampleDays"] = "30",
            ["Retention:SampleBatchRuns"] = "2",
        };
    }

    [Fact]
    public async Task Old_runs_keep_their_summary_and_lose_their_samples_and_recent_runs_keep_everything()
    {
        await app.CreateProjectAsync("retention");
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        var runs = new List<long>();
        for (var i = 0; i < 5; i++)
        {
            var bytes = Generic.Times(Enumerable.Range(0, 40).Select(b => ($"Ret.B{b}", Generic.Around(100 + b, 0.05, 20, b * 10 + i))).ToArray());
            var response = await IngestionTests.Post(client, new RunMetadata { Project = "retention", Commit = $"ee0000000{i}", Branch = "main", Profile = "m1-pro", Format = "json" },
                null, ("r.json", bytes));
            runs.Add((await response.Content.ReadFromJsonAsync<RunCreated>())!.RunId);
        }
        // Three runs stored 40 days ago; the harness reported no median for one of their results.
        var old = runs.Take(3).ToArray();
        await ExecAsync($"UPDATE runs SET created_at = now() - interval '40 days' WHERE id = ANY(ARRAY[{string.Join(',', old)}]::bigint[])");
        await ExecAsync($"UPDATE results SET median = NULL WHERE run_id = {old[0]}");
        var expectedMedian = await ScalarAsync<double>($"""
            SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM results r, unnest(r.samples) x
            WHERE r.run_id = {old[0]} AND r.benchmark_id = (SELECT min(benchmark_id) FROM results WHERE run_id = {old[0]})
            """);
        var before = await ScalarAsync<string>($"SELECT string_agg(value::text || '/' || mean::text || '/' || sample_count::text, ',' ORDER BY id) FROM results WHERE run_id = ANY(ARRAY[{string.Join(',', old)}]::bigint[])");

        var summary = await RunJobAsync();

        Assert.Equal(new SampleRetentionSummary(3, 120, 2400), summary);
        Assert.Equal(0L, await ScalarAsync<long>($"SELECT count(*) FROM results WHERE run_id = ANY(ARRAY[{string.Join(',', old)}]::bigint[]) AND samples IS NOT NULL"));
        Assert.Equal(80L, await ScalarAsync<long>($"SELECT count(*) FROM results WHERE run_id = ANY(ARRAY[{runs[3]},{runs[4]}]::bigint[]) AND cardinality(samples) = 20"));
        // Value, mean and sample count untouched; the missing median filled from the samples before they went.
        Assert.Equal(before, await ScalarAsync<string>($"SELECT string_agg(value::text || '/' || mean::text || '/' || sample_count::text, ',' ORDER BY id) FROM results WHERE run_id = ANY(ARRAY[{string.Join(',', old)}]::bigint[])"));
        Assert.Equal(expectedMedian, await ScalarAsync<double>($"SELECT median FROM results WHERE run_id = {old[0]} AND benchmark_id = (SELECT min(benchmark_id) FROM results WHERE run_id = {old[0]})"), 9);
        Assert.Equal(3L, await ScalarAsync<long>("SELECT count(*) FROM runs WHERE samples_summarised_at IS NOT NULL"));

        Assert.Equal(new SampleRetentionSummary(0, 0, 0), await RunJobAsync());
    }

    [Fact]
    public void A_negative_retention_is_refused()
    {
        var options = new RetentionOptions { SampleDays = -1 };
        var validation = new DataAnnotationValidateOptions<RetentionOptions>(null).Validate(null, options);
        Assert.True(validation.Failed);
        Assert.Contains("SampleDays", validation.FailureMessage);
    }

    private async Task<SampleRetentionSummary> RunJobAsync()
    {
        await using var scope = app.Services.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<SampleRetentionJob>().RunAsync(CancellationToken.None);
    }

    private Task ExecAsync(string sql) => app.Database.ExecAsync(sql);

    private Task<T> ScalarAsync<T>(string sql) => app.Database.ScalarAsync<T>(sql);
}
