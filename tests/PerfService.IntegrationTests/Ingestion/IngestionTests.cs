using PerfService.Core.Parsing;
using PerfService.Runs;

namespace PerfService.IntegrationTests.Ingestion;

public class IngestionTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private const string MultiRuntime = "mcostello-bdn0.15.2-multi-runtime-net8-net9-report-full-compressed.json";

    private static RunMetadata Meta(string project, string commit = "a1b2c3d4e5f6", string profile = "i7-4790k") =>
        new() { Project = project, Commit = commit, Branch = "main", Profile = profile, Suite = "rivulet" };

    [Fact]
    public async Task A_real_export_is_stored_whole_and_a_repost_with_the_same_key_returns_the_first_run()
    {
        await app.CreateProjectAsync("ingest-bdn");
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        var bytes = Fixtures.Read("benchmarkdotnet", MultiRuntime);
        var expected = ResultParsers.Parse([new Artifact(MultiRuntime, bytes)]);

        var first = await Post(client, Meta("ingest-bdn"), "key-1", (MultiRuntime, bytes));
        Assert.Equal(HttpStatusCode.Created, first.StatusCode);
        var created = (await first.Content.ReadFromJsonAsync<RunCreated>())!;
        Assert.False(created.Duplicate);
        Assert.Equal(expected.Results.Count, created.Results);

        var again = await Post(client, Meta("ingest-bdn"), "key-1", (MultiRuntime, bytes));
        Assert.Equal(HttpStatusCode.OK, again.StatusCode);
        var repeat = (await again.Content.ReadFromJsonAsync<RunCreated>())!;
        Assert.True(repeat.Duplicate);
        Assert.Equal(created.RunId, repeat.RunId);
        Assert.Equal((created.Benchmarks, created.Results), (repeat.Benchmarks, repeat.Results));

        Assert.Equal(1, await app.WithDbAsync(db => db.Runs.CountAsync(r => db.Projects.Any(p => p.Id == r.ProjectId && p.Slug == "ingest-bdn"))));
        var run = (await client.GetFromJsonAsync<RunDetailDto>($"/api/v1/runs/{created.RunId}"))!;
        Assert.Equal(expected.Results.Count, run.Results.Count);
        foreach (var want in expected.Results)
        {
            var got = Assert.Single(run.Results, r => r.Benchmark == want.Key && r.Measure == want.Measure);
            Assert.Equal(want.Value, got.Value);
            Assert.Equal(want.Samples ?? [], got.Samples ?? []);
            Assert.Equal(want.Error, got.Error);
        }
        Assert.Equal([MultiRuntime], run.Artifacts);
        // The raw bytes come back exactly as uploaded.
        Assert.Equal(bytes, await client.GetByteArrayAsync($"/api/v1/runs/{created.RunId}/artifacts/{MultiRuntime}"));
    }

    [Fact]
    public async Task Concurrent_posts_with_one_key_store_one_run()
    {
        await app.CreateProjectAsync("ingest-race");
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        var bytes = Fixtures.Read("gobench", "haxmap-count20-command-line-arguments.txt");
        var responses = await Task.WhenAll(Enumerable.Range(0, 8).Select(_ =>
            Post(client, Meta("ingest-race", "feedbeef"), "race", ("go.txt", bytes))));

        var ids = await Task.WhenAll(responses.Select(async r =>
        {
            Assert.True(r.IsSuccessStatusCode, await r.Content.ReadAsStringAsync());
            return (await r.Content.ReadFromJsonAsync<RunCreated>())!.RunId;
        }));
        Assert.Single(ids.Distinct());
        Assert.Equal(1, await app.WithDbAsync(db => db.Runs.CountAsync(r => r.IdempotencyKey == "race")));
    }

    [Fact]
    public async Task Concurrent_uploads_each_keep_their_own_bytes_and_results()
    {
        // An upload's file is held in pooled blocks until its request ends: uploads at once, of sizes inside one block
        // and past it (128 KB), must each store and return exactly their own bytes, and the next ones reuse the blocks.
        await app.CreateProjectAsync("ingest-pool");
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        var files = Enumerable.Range(0, 12).Select(i => Generic.Times(
            Enumerable.Range(0, 20 + i * 90).Select(b => ($"Pool.B{b}", Generic.Around(100 + i, 0.05, 20, seed: i * 1000 + b))).ToArray())).ToList();
        Assert.Contains(files, f => f.Length > 128 * 1024);
        for (var round = 0; round < 2; round++)
        {
            var responses = await Task.WhenAll(files.Select((f, i) =>
                Post(client, Meta("ingest-pool", $"{round:x2}{i:x6}"), $"pool-{round}-{i}", ("r.json", f))));
            for (var i = 0; i < files.Count; i++)
            {
                Assert.True(responses[i].StatusCode == HttpStatusCode.Created, await responses[i].Content.ReadAsStringAsync());
                var created = (await responses[i].Content.ReadFromJsonAsync<RunCreated>())!;
                Assert.Equal(20 + i * 90, created.Results);
                Assert.Equal(files[i], await client.GetByteArrayAsync($"/api/v1/runs/{created.RunId}/artifacts/r.json"));
                var run = (await client.GetFromJsonAsync<RunDetailDto>($"/api/v1/runs/{created.RunId}"))!;
                var last = ResultParsers.Parse([new Artifact("r.json", files[i])]).Results[^1];
                Assert.Equal(last.Samples, Assert.Single(run.Results, r => r.Benchmark == last.Key).Samples);
            }
        }
    }

    [Fact]
    public async Task A_criterion_tree_keeps_its_folders_and_gives_samples()
    {
        await app.CreateProjectAsync("ingest-criterion");
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        var tree = Fixtures.Tree("criterion", "cryptobench-criterion-0.5.1");
        var response = await Post(client, Meta("ingest-criterion") with { Format = "criterion" }, null, tree);
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var run = (await client.GetFromJsonAsync<RunDetailDto>($"/api/v1/runs/{(await response.Content.ReadFromJsonAsync<RunCreated>())!.RunId}"))!;
        var time = Assert.Single(run.Results, r => r.Measure == "time");
        Assert.NotNull(time.Samples);
        Assert.True(time.Samples!.Length > 10);
        Assert.Equal(tree.Length, run.Artifacts.Count);
    }

    [Fact]
    public async Task Posting_needs_an_ingest_or_agent_token()
    {
        await app.CreateProjectAsync("ingest-auth");
        var bytes = Fixtures.Read("gobench", "bencher-space-separated-auxmetric.txt");
        Assert.Equal(HttpStatusCode.Unauthorized, (await Post(app.CreateClient(), Meta("ingest-auth"), null, ("go.txt", bytes))).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await Post(await app.ClientWithScopesAsync(Scopes.Read), Meta("ingest-auth"), null, ("go.txt", bytes))).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await Post(await app.ClientWithScopesAsync(Scopes.Agent), Meta("ingest-auth"), null, ("go.txt", bytes))).StatusCode);
    }

    internal static Task<HttpResponseMessage> Post(HttpClient client, RunMetadata meta, string? key, params (string, byte[])[] files)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/api/v1/runs") { Content = PerfServiceApp.Upload(meta, files) };
        if (key is not null) request.Headers.Add("Idempotency-Key", key);
        return client.SendAsync(request);
    }
}
