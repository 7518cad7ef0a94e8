using System.IO.Compression;
using System.Text;
using Microsoft.AspNetCore.Mvc;

namespace PerfService.IntegrationTests.Ingestion;

/// <summary>A service with small limits, so that oversized input is cheap to make.</summary>
public sealed class SmallLimitsApp : PerfServiceApp
{
    protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?>
    {
        ["Ingest:MaxBodyBytes"] = (256 * 1024).ToString(),
        ["Ingest:MaxFileBytes"] = (1024 * 1024).ToString(),
    };
}

public class BadInputTests(SmallLimitsApp app) : IClassFixture<SmallLimitsApp>
{
    private static readonly byte[] GoodGo = Encoding.UTF8.GetBytes("goos: linux\nBenchmarkX-8\t100\t12.5 ns/op\n");

    public static TheoryData<string, int, string, string?> Cases => new()
    {
        // name, expected status, text the detail must contain, file the problem must name
        { "truncated-json", 422, "", "bdn.json" },
        { "nan", 422, "", "generic.json" },
        { "unknown-format", 422, "", "notes.txt" },
        { "unsafe-path", 400, "..", "../../etc/passwd" },
        { "absolute-path", 400, "relative", "/etc/passwd" },
        { "unknown-project", 404, "no-such-project", "run" },
        { "bad-commit", 400, "commit", "run" },
        { "unknown-profile", 422, "ryzen-9950x", "run" },
        { "no-files", 400, "files", null },
        { "gzip-bomb", 413, "decompressed", "bomb.json.gz" },
        { "bad-gzip", 400, "gzip", "broken.txt.gz" },
        { "metadata-not-json", 400, "RunMetadata", "run" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Bad_input_gets_a_clear_problem_and_stores_nothing(string name, int status, string contains, string? file)
    {
        await EnsureProjectAsync();
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        var before = await CountRunsAsync();

        var response = await client.PostAsync("/api/v1/runs", Build(name));

        Assert.Equal(status, (int)response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        var problem = (await response.Content.ReadFromJsonAsync<ProblemDetails>())!;
        Assert.Contains(contains, problem.Detail ?? "", StringComparison.OrdinalIgnoreCase);
        if (file is not null) Assert.Equal(file, problem.Extensions["file"]?.ToString());
        Assert.Equal(before, await CountRunsAsync());
    }

    [Fact]
    public async Task A_body_over_the_limit_is_413()
    {
        await EnsureProjectAsync();
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        var response = await client.PostAsync("/api/v1/runs", PerfServiceApp.Upload(Meta(), ("big.txt", new byte[300 * 1024])));
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
    }

    private static RunMetadata Meta() => new() { Project = "bad-input", Commit = "abcdef12", Branch = "main", Profile = "m1-pro" };

    private static HttpContent Build(string name) => name switch
    {
        "truncated-json" => PerfServiceApp.Upload(Meta(), ("bdn.json", Encoding.UTF8.GetBytes("{\"Title\":\"x\",\"Benchmarks\":[{\"FullName\":\"A.B\",\"Statistics\":{\"Mean\":1"))),
        "nan" => PerfServiceApp.Upload(Meta(), ("generic.json", Encoding.UTF8.GetBytes("{\"results\":[{\"benchmark\":\"x\",\"measure\":\"time\",\"unit\":\"ns\",\"value\":\"NaN\"}]}"))),
        "unknown-format" => PerfServiceApp.Upload(Meta(), ("notes.txt", Encoding.UTF8.GetBytes("just some words\nnothing to see\n"))),
        "unsafe-path" => PerfServiceApp.Upload(Meta(), ("../../etc/passwd", GoodGo)),
        "absolute-path" => PerfServiceApp.Upload(Meta(), ("/etc/passwd", GoodGo)),
        "unknown-project" => PerfServiceApp.Upload(Meta() with { Project = "no-such-project" }, ("go.txt", GoodGo)),
        "bad-commit" => PerfServiceApp.Upload(Meta() with { Commit = "'; DROP TABLE runs; --" }, ("go.txt", GoodGo)),
        "unknown-profile" => PerfServiceApp.Upload(Meta() with { Profile = "pentium-3" }, ("go.txt", GoodGo)),
        "no-files" => PerfServiceApp.Upload(Meta()),
        "gzip-bomb" => PerfServiceApp.Upload(Meta(), ("bomb.json.gz", GzipOfZeros(8 * 1024 * 1024))),
        "bad-gzip" => PerfServiceApp.Upload(Meta(), ("broken.txt.gz", Encoding.UTF8.GetBytes("not gzip at all"))),
        "metadata-not-json" => new MultipartFormDataContent { { new StringContent("{not json"), "run" }, { new ByteArrayContent(GoodGo), "files", "go.txt" } },
        _ => throw new ArgumentOutOfRangeException(nameof(name)),
    };

    private static byte[] GzipOfZeros(int size)
    {
        using var output = new MemoryStream();
        using (var gz = new GZipStream(output, CompressionLevel.SmallestSize)) gz.Write(new byte[size]);
        return output.ToArray();
    }

    private async Task EnsureProjectAsync()
    {
        if (!await app.WithDbAsync(db => db.Projects.AnyAsync(p => p.Slug == "bad-input"))) await app.CreateProjectAsync("bad-input");
    }

    private Task<int> CountRunsAsync() => app.WithDbAsync(db => db.Runs.CountAsync());
}
