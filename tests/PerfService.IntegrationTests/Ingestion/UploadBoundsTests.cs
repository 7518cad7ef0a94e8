using System.IO.Compression;
using System.Text;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.DependencyInjection;
using PerfService.Ingestion;

namespace PerfService.IntegrationTests.Ingestion;

/// <summary>Per-file and per-request budgets, a spool folder of its own, and one upload at a time.</summary>
public sealed class BoundedUploadsApp : PerfServiceApp
{
    public string SpoolDirectory { get; } = Path.Combine(Path.GetTempPath(), "perf-spool-test-" + Guid.NewGuid().ToString("N"));
    public Uri BaseAddress { get; private set; } = null!;

    /// <summary>On a real Kestrel port: an in-memory test server reads a whole request body before the app sees it,
    /// so an upload could never be caught holding its slot.</summary>
    public override async Task InitializeAsync()
    {
        await base.InitializeAsync();
        UseKestrel(k => k.Listen(System.Net.IPAddress.Loopback, 0));
        StartServer();
        BaseAddress = new Uri(Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First());
    }

    public async Task<HttpClient> KestrelClientAsync(string scope) => new()
    {
        BaseAddress = BaseAddress,
        DefaultRequestHeaders = { Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue("Bearer", await CreateTokenAsync(scope)) },
    };

    protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?>
    {
        ["Ingest:MaxFileBytes"] = (1024 * 1024).ToString(),
        ["Ingest:MaxRequestBytes"] = (2 * 1024 * 1024).ToString(),
        ["Ingest:SpoolThresholdBytes"] = (64 * 1024).ToString(),
        ["Ingest:SpoolDirectory"] = SpoolDirectory,
        ["Ingest:MaxConcurrentUploads"] = "1",
        ["Ingest:QueueSeconds"] = "0",
    };
}

/// <summary>Issue 12 §4: uploads are bounded while they are inflated, spooled when large, and limited in number.</summary>
public class UploadBoundsTests(BoundedUploadsApp app) : IClassFixture<BoundedUploadsApp>
{
    private const string Project = "bounded";

    [Fact]
    public async Task Files_each_under_the_file_limit_but_over_the_request_budget_together_are_a_413_and_store_nothing()
    {
        var client = await ReadyAsync();
        var before = await StoredAsync();
        // Three 900 KiB bombs: each passes the 1 MiB file limit, together they pass the 2 MiB request budget.
        var bomb = GzipOfZeros(900 * 1024);
        var response = await client.PostAsync("/api/v1/runs", PerfServiceApp.Upload(Meta("b1b1b1b1"), ("a.json.gz", bomb), ("b.json.gz", bomb), ("c.json.gz", bomb)));

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        var problem = (await response.Content.ReadFromJsonAsync<ProblemDetails>())!;
        Assert.Contains("together", problem.Detail);
        Assert.Equal("c.json.gz", problem.Extensions["file"]!.ToString());
        Assert.Equal(before, await StoredAsync());
        Assert.Empty(SpoolFiles());
    }

    [Fact]
    public async Task A_gzip_bomb_is_stopped_at_the_file_limit_with_a_413()
    {
        var client = await ReadyAsync();
        var before = await StoredAsync();
        var response = await client.PostAsync("/api/v1/runs", PerfServiceApp.Upload(Meta("b2b2b2b2"), ("bomb.json.gz", GzipOfZeros(64 * 1024 * 1024))));

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        Assert.Contains("once decompressed", (await response.Content.ReadFromJsonAsync<ProblemDetails>())!.Detail);
        Assert.Equal(before, await StoredAsync());
        Assert.Empty(SpoolFiles());
    }

    [Fact]
    public async Task A_large_file_is_spooled_stored_whole_and_served_back_streamed_and_its_spool_file_is_deleted()
    {
        var client = await ReadyAsync();
        // About 600 KB of generic JSON, well past the 64 KiB spool threshold.
        var results = Enumerable.Range(0, 400).Select(i => ($"Big.Bench{i:000}", Generic.Around(100 + i, 0.01, 100, seed: i))).ToArray();
        var json = Generic.Times(results);
        Assert.True(json.Length > 256 * 1024);
        var response = await client.PostAsync("/api/v1/runs", PerfServiceApp.Upload(Meta("b3b3b3b3"), ("big.json.gz", Gzip(json))));

        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        var created = (await response.Content.ReadFromJsonAsync<RunCreated>())!;
        Assert.Equal(400, created.Benchmarks);
        Assert.Empty(SpoolFiles());
        Assert.Equal(json, await client.GetByteArrayAsync($"/api/v1/runs/{created.RunId}/artifacts/big.json.gz"));
    }

    [Fact]
    public async Task An_upload_beyond_the_concurrent_limit_is_answered_503_with_retry_after_and_the_held_one_completes()
    {
        var client = await ReadyAsync();
        var gate = app.Services.GetRequiredService<UploadGate>();
        var release = new TaskCompletionSource();
        var held = new HeldContent(PerfServiceApp.Upload(Meta("c0de0001"), ("go.txt", GoodGo)), release.Task);
        var first = client.PostAsync("/api/v1/runs", held);
        await Eventually.WaitAsync(() => Task.FromResult(gate.Free), free => free == 0);

        var second = await client.PostAsync("/api/v1/runs", PerfServiceApp.Upload(Meta("c0de0002"), ("go.txt", GoodGo)));
        Assert.Equal(HttpStatusCode.ServiceUnavailable, second.StatusCode);
        Assert.NotNull(second.Headers.RetryAfter);
        Assert.Equal("Uploads busy", (await second.Content.ReadFromJsonAsync<ProblemDetails>())!.Title);

        release.SetResult();
        Assert.Equal(HttpStatusCode.Created, (await first).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await client.PostAsync("/api/v1/runs", PerfServiceApp.Upload(Meta("c0de0002"), ("go.txt", GoodGo)))).StatusCode);
    }

    private static readonly byte[] GoodGo = Encoding.UTF8.GetBytes("goos: linux\nBenchmarkX-8\t100\t12.5 ns/op\n");

    private static RunMetadata Meta(string commit) => new() { Project = Project, Commit = commit, Branch = "main", Profile = "m1-pro" };

    private async Task<HttpClient> ReadyAsync()
    {
        if (!await app.WithDbAsync(db => db.Projects.AnyAsync(p => p.Slug == Project)))
            await (await app.KestrelClientAsync(Scopes.Admin)).PostAsJsonAsync("/api/v1/projects", new { slug = Project, name = Project, isPublic = true });
        return await app.KestrelClientAsync(Scopes.Ingest);
    }

    private Task<(int Runs, int Artifacts, int Results)> StoredAsync() => app.WithDbAsync(async db => (
        await db.Runs.CountAsync(), await db.Artifacts.CountAsync(), await db.Results.CountAsync()));

    private string[] SpoolFiles() => Directory.Exists(app.SpoolDirectory) ? Directory.GetFiles(app.SpoolDirectory) : [];

    private static byte[] GzipOfZeros(int size) => Gzip(new byte[size]);

    private static byte[] Gzip(byte[] content)
    {
        using var output = new MemoryStream();
        using (var gz = new GZipStream(output, CompressionLevel.SmallestSize)) gz.Write(content);
        return output.ToArray();
    }

    /// <summary>Sends half of a body, then waits until released: an upload in progress, holding its slot.</summary>
    private sealed class HeldContent : HttpContent
    {
        private readonly HttpContent _inner;
        private readonly Task _release;

        public HeldContent(HttpContent inner, Task release)
        {
            _inner = inner;
            _release = release;
            Headers.ContentType = inner.Headers.ContentType;
        }

        protected override async Task SerializeToStreamAsync(Stream stream, System.Net.TransportContext? context)
        {
            var bytes = await _inner.ReadAsByteArrayAsync();
            await stream.WriteAsync(bytes.AsMemory(0, bytes.Length / 2));
            await stream.FlushAsync();
            await _release;
            await stream.WriteAsync(bytes.AsMemory(bytes.Length / 2));
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
