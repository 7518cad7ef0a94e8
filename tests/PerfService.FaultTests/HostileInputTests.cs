using System.IO.Compression;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using PerfService.FaultTests.Infrastructure;
using Xunit.Abstractions;

namespace PerfService.FaultTests;

/// <summary>The service as a process with small limits, one project, and the tokens the hostile corpus uses.</summary>
public sealed class HostileService : IAsyncLifetime
{
    public const string Project = "hostile";
    public const long MaxBodyBytes = 256 * 1024;
    public const long MaxFileBytes = 1024 * 1024;
    public const int MaxFiles = 20;

    private readonly Scratch _scratch = new("hostile");
    public TestDatabase Db { get; private set; } = null!;
    public ServiceProcess Service { get; private set; } = null!;
    public HttpClient Ingest { get; private set; } = null!;
    public HttpClient Admin { get; private set; } = null!;
    public HttpClient Anonymous { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        Db = await TestDatabase.CreateAsync();
        Service = new ServiceProcess(Db.ConnectionString, _scratch.Root, new Dictionary<string, string?>
        {
            ["Ingest__MaxBodyBytes"] = MaxBodyBytes.ToString(),
            ["Ingest__MaxFileBytes"] = MaxFileBytes.ToString(),
            ["Ingest__MaxFiles"] = MaxFiles.ToString(),
        });
        await Service.StartAsync();
        Admin = Service.Client(await Db.CreateTokenAsync("admin", "admin"));
        Ingest = Service.Client(await Db.CreateTokenAsync("ingest", "ingest"));
        Anonymous = Service.Anonymous();
        await Uploads.CreateProjectAsync(Admin, Project);
        // One good run first, so that "unchanged" is checked against tables that hold something.
        var seeded = await Uploads.PostAsync(Ingest, Uploads.Metadata(Project, Uploads.Commit("seed")), "seed", ("results.json", Uploads.GenericJson(10, 20, 1)));
        if (!seeded.Acknowledged) throw new InvalidOperationException($"seeding failed: {seeded}");
    }

    public async Task DisposeAsync()
    {
        Ingest?.Dispose();
        Admin?.Dispose();
        Anonymous?.Dispose();
        await Service.DisposeAsync();
        await Db.DisposeAsync();
        _scratch.Dispose();
    }
}

/// <summary>
/// A hostile corpus against the HTTP endpoints, beyond what the integration tests' BadInputTests covers: absurd nesting,
/// absurd numbers, invalid UTF-8, traversal variants, chunked and multi-member-gzip size attacks, broken multipart,
/// wrong JSON types on the admin endpoints. Each gets a 4xx with a message — never a 5xx — and leaves every table
/// as it was; injection payloads in names are stored and returned verbatim and execute nowhere.
/// </summary>
public sealed class HostileInputTests(HostileService fixture, ITestOutputHelper output) : IClassFixture<HostileService>
{
    public static TheoryData<string> Cases => new(HostileCorpus.Names);
    public static TheoryData<string> Utf8Cases => new(HostileCorpus.Names.Where(n => n.Contains("utf8", StringComparison.Ordinal)));
    public static TheoryData<string> AdminCases => new(HostileCorpus.AdminNames);

    [Theory]
    [MemberData(nameof(Cases))]
    public Task Hostile_input_gets_a_4xx_with_a_message_and_stores_nothing(string name) => AssertRefusedAsync(name, requireDetail: false);

    [Theory]
    [MemberData(nameof(AdminCases))]
    public Task Admin_endpoints_say_what_is_wrong_with_a_body(string name) => AssertRefusedAsync(name, requireDetail: true);

    [Theory]
    [MemberData(nameof(Utf8Cases))]
    public Task Invalid_utf8_is_refused_with_a_reason(string name) => AssertRefusedAsync(name, requireDetail: true);

    private async Task AssertRefusedAsync(string name, bool requireDetail)
    {
        var errorsBefore = fixture.Service.ErrorLogLines().Count;
        var before = await fixture.Db.CountsAsync();
        var attack = HostileCorpus.Build(name);

        using var request = new HttpRequestMessage(HttpMethod.Post, attack.Path) { Content = attack.Content };
        foreach (var (header, value) in attack.Headers) request.Headers.TryAddWithoutValidation(header, value);
        var client = attack.Path.EndsWith("runs", StringComparison.Ordinal) ? fixture.Ingest : fixture.Admin;
        using var response = await client.SendAsync(request);
        var body = await response.Content.ReadAsStringAsync();
        output.WriteLine($"{name}: {(int)response.StatusCode} {response.Content.Headers.ContentType} {body}");

        var status = (int)response.StatusCode;
        Assert.True(status is >= 400 and < 500, $"{name}: expected a 4xx, got {status}: {body}");
        if (attack.Status is { } expected) Assert.Equal(expected, status);
        // Kestrel answers a request it cannot even parse (431: headers too large) itself, before any middleware.
        if (status != 431)
        {
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
            using var problem = JsonDocument.Parse(body);
            var text = Message(problem.RootElement, requireDetail);
            Assert.False(string.IsNullOrWhiteSpace(text), $"{name}: the problem says nothing{(requireDetail ? " beyond its title" : "")}: {body}");
            if (attack.MessageContains is { } words)
                Assert.True(words.Any(w => text.Contains(w, StringComparison.OrdinalIgnoreCase)),
                    $"{name}: expected the message to mention one of [{string.Join(", ", words)}], got: {text}");
        }
        Assert.Equal(before, await fixture.Db.CountsAsync());
        Assert.True(fixture.Service.Running);
        Assert.Equal(errorsBefore, fixture.Service.ErrorLogLines().Count);
    }

    [Fact]
    public async Task Injection_in_names_is_stored_and_returned_verbatim_and_executes_nowhere()
    {
        var before = await fixture.Db.CountsAsync();
        string[] names =
        [
            "Robert'); DROP TABLE results;--",
            "x\"; DROP TABLE benchmarks; --",
            "<script>alert('xss')</script>",
            "<img src=x onerror=alert(1)>",
            "{{7*7}} ${7*7} #{7*7} <%= 7*7 %>",
            "%s%s%s%n %x",
            "' OR '1'='1' --",
            "$(rm -rf /) `reboot`; | cat /etc/passwd",
            "☃ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \u202eRTL\u202c ünïcödé",
        ];
        const string branch = "main'; DROP TABLE branches; --<script>";
        const string suite = "s'); DELETE FROM runs; --";
        const string fileName = "'; DROP TABLE artifacts; --.json";
        var json = JsonSerializer.SerializeToUtf8Bytes(new
        {
            environment = new Dictionary<string, string> { ["os"] = "'; TRUNCATE projects; --" },
            results = names.Select((n, i) => new
            {
                benchmark = n,
                parameters = new Dictionary<string, string> { ["q"] = "1; DROP TABLE runs", ["html"] = "<b onmouseover=alert(1)>", ["i"] = i.ToString() },
                unit = "ns",
                samples = new[] { 10.0 + i, 11.0 + i, 12.0 + i },
            }),
        });
        var run = Uploads.Metadata(HostileService.Project, Uploads.Commit("injection")) with
        {
            Branch = branch,
            Suite = suite,
            CommitMessage = "<script>document.cookie</script>'; DROP TABLE commits; --",
        };
        var posted = await Uploads.PostAsync(fixture.Ingest, run, "'; DROP TABLE runs; --", (fileName, json));
        Assert.True(posted.Status == HttpStatusCode.Created, posted.ToString());

        using var response = await fixture.Anonymous.GetAsync($"api/v1/runs/{posted.Run!.RunId}");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        using var detail = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        var root = detail.RootElement;
        Assert.Equal(branch, root.GetProperty("run").GetProperty("branch").GetString());
        Assert.Equal(suite, root.GetProperty("run").GetProperty("suite").GetString());
        Assert.Equal([fileName], root.GetProperty("artifacts").EnumerateArray().Select(a => a.GetString()!));
        var results = root.GetProperty("results").EnumerateArray().ToList();
        Assert.Equal(names.Order(StringComparer.Ordinal), results.Select(r => r.GetProperty("name").GetString()!).Order(StringComparer.Ordinal));
        foreach (var result in results)
        {
            using var parameters = JsonDocument.Parse(result.GetProperty("parameters").GetString()!);
            Assert.Equal("1; DROP TABLE runs", parameters.RootElement.GetProperty("q").GetString());
            Assert.Equal("<b onmouseover=alert(1)>", parameters.RootElement.GetProperty("html").GetString());
        }

        // Every table is still there, and exactly one run with its results was added.
        foreach (var table in new[] { "runs", "results", "benchmarks", "branches", "suites", "commits", "artifacts", "projects" })
            Assert.True(await fixture.Db.ScalarAsync<bool>($"SELECT to_regclass('public.{table}') IS NOT NULL"), $"table {table} is gone");
        var after = await fixture.Db.CountsAsync();
        Assert.Equal(before.Runs + 1, after.Runs);
        Assert.Equal(before.Results + names.Length, after.Results);
        Assert.Equal(before.Projects, after.Projects);
        Assert.Equal(1, await fixture.Db.ScalarAsync<long>("SELECT count(*) FROM runs WHERE idempotency_key = $1", "'; DROP TABLE runs; --"));
    }

    /// <summary>The problem's text: title and detail (or only the detail and field errors when the title is not enough).</summary>
    private static string Message(JsonElement problem, bool detailOnly)
    {
        var parts = new List<string>();
        foreach (var field in detailOnly ? ["detail"] : new[] { "title", "detail" })
            if (problem.TryGetProperty(field, out var v) && v.ValueKind == JsonValueKind.String) parts.Add(v.GetString()!);
        if (problem.TryGetProperty("errors", out var errors)) parts.Add(errors.GetRawText());
        return string.Join(" | ", parts);
    }
}

/// <summary>One hostile request: where it goes, its body and headers, the status it must get (when one is right) and
/// words its message must contain (any of them).</summary>
public sealed record Attack(string Path, HttpContent Content, int? Status, string[]? MessageContains)
{
    public List<(string Name, string Value)> Headers { get; init; } = [];
}

public static class HostileCorpus
{
    private const string Project = HostileService.Project;
    private static readonly byte[] Good = Uploads.GenericJson(3, 20, 5);

    private static readonly Dictionary<string, Func<Attack>> _cases = new()
    {
        // Nesting far beyond any parser's depth limit, in the metadata and in a result file.
        ["run-part-nested-10000"] = () => Run(Raw(Meta(extra: $"\"padding\":{Nested(10_000)}")), 400, "depth"),
        ["run-part-environment-nested-10000"] = () => Run(Raw(Meta(extra: $"\"environment\":{{\"a\":{Nested(10_000)}}}")), 400, "metadata"),
        ["generic-json-nested-10000"] = () => Run(Meta(), Utf8($"{{\"results\":[{{\"benchmark\":\"deep\",\"unit\":\"ns\",\"value\":1,\"extra\":{Nested(10_000)}}}]}}"), 422, "depth", "results.json"),
        // Numbers no double can hold.
        ["generic-value-1e400"] = () => Run(Meta(), Utf8("{\"results\":[{\"benchmark\":\"huge\",\"unit\":\"ns\",\"value\":1e400}]}"), 422, "finite", "number"),
        ["generic-samples-minus-1e400"] = () => Run(Meta(), Utf8("{\"results\":[{\"benchmark\":\"huge\",\"unit\":\"ops/s\",\"samples\":[1,-1e400]}]}"), 422, "finite", "number"),
        ["generic-value-1e300-beyond-limit"] = () => Run(Meta(), Utf8("{\"results\":[{\"benchmark\":\"huge\",\"unit\":\"ns\",\"value\":1e300}]}"), 422, "large"),
        ["run-pull-request-1e400"] = () => Run(Raw(Meta(extra: "\"pullRequest\":1e400")), 400, "pullRequest", "metadata"),
        ["run-job-id-beyond-int64"] = () => Run(Raw(Meta(extra: "\"jobId\":123456789012345678901234567890")), 400, "jobId", "metadata"),
        // Invalid UTF-8 where text belongs.
        ["file-content-invalid-utf8"] = () => Run(Meta(), Concat(Utf8("{\"results\":[{\"benchmark\":\"bad"), [0xC0, 0xAF, 0xFF], Utf8("\",\"unit\":\"ns\",\"value\":1}]}")), 422, "utf-8", "results.json"),
        // File names that climb, hide or lie.
        ["traversal-inner-dotdot"] = () => RawRun(new RawMultipart().Run(Utf8(Meta())).File("a/../../etc/passwd", Good), 400, ".."),
        ["traversal-backslash"] = () => RawRun(new RawMultipart().Run(Utf8(Meta())).File("..\\..\\windows\\win.ini", Good), 400, "'/'", "\\"),
        ["traversal-drive-letter"] = () => RawRun(new RawMultipart().Run(Utf8(Meta())).File("C:/Windows/evil.json", Good), 400, "relative"),
        ["traversal-dot-segment"] = () => RawRun(new RawMultipart().Run(Utf8(Meta())).File("./results.json", Good), 400, "'.'"),
        ["traversal-empty-segment"] = () => RawRun(new RawMultipart().Run(Utf8(Meta())).File("a//results.json", Good), 400, "empty"),
        ["traversal-trailing-dotdot"] = () => RawRun(new RawMultipart().Run(Utf8(Meta())).File("results.json/..", Good), 400, ".."),
        ["file-name-nul"] = () => RawRun(new RawMultipart().Run(Utf8(Meta())).File("results\0.json", Good), 400, "control"),
        ["file-name-600-chars"] = () => RawRun(new RawMultipart().Run(Utf8(Meta())).File(new string('a', 595) + ".json", Good), 400, "500"),
        // Size attacks the Content-Length check cannot see.
        ["oversized-artifact-declared"] = () => Run(Meta(), new byte[HostileService.MaxBodyBytes + 1024], 413, "bytes"),
        ["oversized-artifact-chunked"] = () => Chunked(new RawMultipart().Run(Utf8(Meta())).File("big.json", new byte[HostileService.MaxBodyBytes + 64 * 1024]).Bytes()),
        ["gzip-bomb-multi-member"] = () => RunFile("results.json.gz", GzipMembers(members: 8, bytesEach: (int)HostileService.MaxFileBytes / 4), 413, "decompressed"),
        ["gzip-bomb-valid-json-prefix"] = () => RunFile("results.json.gz", Gzip(Concat(Utf8("{\"results\":[{\"benchmark\":\"x\",\"unit\":\"ns\",\"value\":1}]"), Utf8(new string(' ', (int)HostileService.MaxFileBytes * 2)), Utf8("}"))), 413, "decompressed"),
        ["too-many-files"] = () => RawRun(Enumerable.Range(0, HostileService.MaxFiles + 5).Aggregate(new RawMultipart().Run(Utf8(Meta())), (m, i) => m.File($"r{i}.json", Good)), 413, "files"),
        // Broken multipart and headers.
        ["multipart-truncated"] = () => new Attack("api/v1/runs", RawMultipart.Content(Truncate(new RawMultipart().Run(Utf8(Meta())).File("results.json", Good).Bytes(close: false))), 400, ["multipart", "body", "unexpected end"]),
        ["multipart-without-boundary"] = () => new Attack("api/v1/runs", RawMultipart.Content(new RawMultipart().Run(Utf8(Meta())).Bytes(), boundary: null), 400, ["boundary", "multipart"]),
        ["two-run-parts"] = () => RawRun(new RawMultipart().Run(Utf8(Meta())).Run(Utf8(Meta())).File("results.json", Good), 400, "metadata"),
        ["json-instead-of-multipart"] = () => new Attack("api/v1/runs", Json(Meta()), 415, ["multipart"]),
        ["idempotency-key-201-chars"] = () => Run(Meta(), Good, 400, "idempotency") with { Headers = [("Idempotency-Key", new string('k', 201))] },
        ["idempotency-key-64kb-header"] = () => Run(Meta(), Good, 431, null) with { Headers = [("Idempotency-Key", new string('k', 64 * 1024))] },
        // The admin endpoints' JSON bodies with wrong types, absurd numbers and absurd nesting.
        ["jobs-wrong-types"] = () => new Attack("api/v1/jobs", Json("{\"project\":5,\"commit\":true}"), 400, null),
        ["jobs-profiles-not-an-array"] = () => new Attack("api/v1/jobs", Json($"{{\"project\":\"{Project}\",\"commit\":\"abcdef12\",\"profiles\":\"m1-pro\"}}"), 400, null),
        ["jobs-rounds-a-string"] = () => new Attack("api/v1/jobs", Json($"{{\"project\":\"{Project}\",\"commit\":\"abcdef12\",\"rounds\":\"two\"}}"), 400, null),
        ["jobs-rounds-1e400"] = () => new Attack("api/v1/jobs", Json($"{{\"project\":\"{Project}\",\"commit\":\"abcdef12\",\"rounds\":1e400}}"), 400, null),
        ["jobs-unknown-kind"] = () => new Attack("api/v1/jobs", Json($"{{\"project\":\"{Project}\",\"commit\":\"abcdef12\",\"kind\":\"Detonate\"}}"), 400, null),
        ["jobs-nested-10000"] = () => new Attack("api/v1/jobs", Json($"{{\"project\":\"{Project}\",\"commit\":\"abcdef12\",\"suites\":{Nested(10_000)}}}"), 400, null),
        ["jobs-not-json"] = () => new Attack("api/v1/jobs", Json("project=hostile&commit=abc"), 400, null),
        ["projects-slug-a-number"] = () => new Attack("api/v1/projects", Json("{\"slug\":123,\"name\":\"x\"}"), 400, null),
        ["projects-name-an-array"] = () => new Attack("api/v1/projects", Json("{\"slug\":\"typed\",\"name\":[\"x\"]}"), 400, null),
        ["projects-is-public-a-string"] = () => new Attack("api/v1/projects", Json("{\"slug\":\"typed-2\",\"name\":\"x\",\"isPublic\":\"yes\"}"), 400, null),
        ["projects-nested-10000"] = () => new Attack("api/v1/projects", Json($"{{\"slug\":\"deep\",\"name\":{Nested(10_000)}}}"), 400, null),
        // Invalid UTF-8 where text belongs: the form reader would turn it into U+FFFD; the service refuses it instead.
        ["run-part-invalid-utf8"] = () => Run(Concat(Utf8(MetaOpen() + ",\"branch\":\"main"), [0xFF, 0xFE, 0xC3, 0x28], Utf8("\"}")), 400, "utf-8", "metadata", "branch"),
        ["file-name-invalid-utf8"] = () => RawRun(new RawMultipart().Run(Utf8(Meta())).Part("files", Good, [0x72, 0xC3, 0x28, 0xFF, 0x2E, 0x6A, 0x73, 0x6F, 0x6E]), 400, "name", "utf-8"),
        ["projects-slug-injection"] = () => new Attack("api/v1/projects", Json("{\"slug\":\"x'; DROP TABLE projects; --\",\"name\":\"x\"}"), 400, ["slug"]),
    };

    public static IEnumerable<string> Names => _cases.Keys;
    public static IEnumerable<string> AdminNames => _cases.Keys.Where(k => k.StartsWith("jobs-", StringComparison.Ordinal) || k.StartsWith("projects-", StringComparison.Ordinal));

    public static Attack Build(string name) => _cases[name]();

    private static string MetaOpen() =>
        $"{{\"project\":\"{Project}\",\"commit\":\"{Uploads.Commit("hostile")}\",\"profile\":\"m1-pro\",\"format\":\"json\"";

    private static string Meta(string extra = "") => MetaOpen() + (extra.Length > 0 ? "," + extra : "") + "}";

    private static string Nested(int depth) => new string('[', depth) + new string(']', depth);

    private static byte[] Utf8(string text) => Encoding.UTF8.GetBytes(text);

    private static byte[] Raw(string json) => Utf8(json);

    private static byte[] Concat(params byte[][] parts) => parts.SelectMany(p => p).ToArray();

    private static Attack Run(byte[] runJson, int? status, params string[]? words) =>
        RawRun(new RawMultipart().Run(runJson).File("results.json", Good), status, words);

    private static Attack Run(string runJson, byte[] file, int? status, params string[]? words) =>
        RawRun(new RawMultipart().Run(Utf8(runJson)).File("results.json", file), status, words);

    private static Attack RunFile(string fileName, byte[] file, int? status, params string[]? words) =>
        RawRun(new RawMultipart().Run(Utf8(Meta())).File(fileName, file), status, words);

    private static Attack RawRun(RawMultipart body, int? status, params string[]? words) =>
        new("api/v1/runs", body.Content(), status, words is { Length: > 0 } ? words : null);

    private static Attack Chunked(byte[] body)
    {
        // No Content-Length: the body arrives chunked, so only the form reader's own limit can stop it.
        var content = new StreamContent(new NonSeekable(body));
        content.Headers.ContentType = MediaTypeHeaderValue.Parse($"multipart/form-data; boundary={RawMultipart.Boundary}");
        return new Attack("api/v1/runs", content, 413, ["limit", "large", "bytes"]);
    }

    private static HttpContent Json(string text) => new StringContent(text, Encoding.UTF8, "application/json");

    private static byte[] Truncate(byte[] body) => body[..(body.Length - Good.Length / 2)];

    private static byte[] Gzip(byte[] content)
    {
        using var output = new MemoryStream();
        using (var gz = new GZipStream(output, CompressionLevel.SmallestSize)) gz.Write(content);
        return output.ToArray();
    }

    /// <summary>Several gzip members back to back: each small and harmless, together past the limit.</summary>
    private static byte[] GzipMembers(int members, int bytesEach)
    {
        var one = Gzip(new byte[bytesEach]);
        return Enumerable.Repeat(one, members).SelectMany(m => m).ToArray();
    }

    /// <summary>A stream whose length is unknown, so that HttpClient sends it chunked.</summary>
    private sealed class NonSeekable(byte[] data) : MemoryStream(data)
    {
        public override bool CanSeek => false;
    }
}
