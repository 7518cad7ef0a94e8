using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Xunit.Abstractions;

namespace PerfService.IntegrationTests.ApiReference;

/// <summary>
/// The service's own /openapi/v1.json: valid OpenAPI 3.1 by an independent validator, and complete enough for a
/// reader and a generated client (a summary per operation, a description per parameter, the scopes each one needs).
/// A new endpoint that lacks one of these fails here with the list of what to add.
/// </summary>
public partial class OpenApiDocumentTests(PerfServiceApp app, ITestOutputHelper output) : IClassFixture<PerfServiceApp>
{
    private static readonly string[] Methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

    private async Task<string> DocumentAsync()
    {
        var response = await app.CreateClient().GetAsync("/openapi/v1.json");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return await response.Content.ReadAsStringAsync();
    }

    private static IEnumerable<(string Key, JsonElement Operation)> Operations(JsonDocument doc) =>
        from path in doc.RootElement.GetProperty("paths").EnumerateObject()
        from op in path.Value.EnumerateObject()
        where Methods.Contains(op.Name)
        select ($"{op.Name.ToUpperInvariant()} {path.Name}", op.Value);

    [Fact]
    public async Task The_document_is_valid_OpenAPI_3_1_for_an_independent_validator()
    {
        var json = await DocumentAsync();
        using var doc = JsonDocument.Parse(json);
        Assert.StartsWith("3.1", doc.RootElement.GetProperty("openapi").GetString());
        var (valid, result) = await OpenApiValidator.ValidateAsync(json);
        output.WriteLine(result);
        Assert.True(valid, "the OpenAPI document is not valid: " + result);
    }

    [Fact]
    public async Task The_validator_refuses_a_broken_document()
    {
        // The check above means something only if the validator says no to a document that is wrong.
        var json = (await DocumentAsync()).Replace("\"paths\":", "\"pathz\":", StringComparison.Ordinal);
        var (valid, result) = await OpenApiValidator.ValidateAsync(json);
        Assert.False(valid, result);
    }

    [Fact]
    public async Task Every_operation_has_a_summary_and_every_parameter_a_description()
    {
        using var doc = JsonDocument.Parse(await DocumentAsync());
        var missing = new List<string>();
        var operations = Operations(doc).ToList();
        foreach (var (key, op) in operations)
        {
            if (!op.TryGetProperty("summary", out var s) || string.IsNullOrWhiteSpace(s.GetString()))
                missing.Add($"{key}: no summary");
            foreach (var p in op.TryGetProperty("parameters", out var ps) ? ps.EnumerateArray() : Enumerable.Empty<JsonElement>())
                if (!p.TryGetProperty("description", out var d) || string.IsNullOrWhiteSpace(d.GetString()))
                    missing.Add($"{key}: parameter '{p.GetProperty("name").GetString()}' ({p.GetProperty("in").GetString()}) has no description");
        }
        output.WriteLine($"{operations.Count} operations, {operations.Sum(o => o.Operation.TryGetProperty("parameters", out var ps) ? ps.GetArrayLength() : 0)} parameters");
        Assert.True(missing.Count == 0, $"{missing.Count} gaps in the API reference. Add .WithSummary(\"…\") where the endpoint is mapped, " +
            "and [Description(\"…\")] on the handler's parameter (or, for a parameter many endpoints share, in ApiReference/RouteParameters):\n"
            + string.Join("\n", missing));
    }

    [Fact]
    public async Task Every_operation_names_its_scopes_unless_it_takes_no_token()
    {
        using var doc = JsonDocument.Parse(await DocumentAsync());
        var scheme = doc.RootElement.GetProperty("components").GetProperty("securitySchemes").GetProperty("bearer");
        Assert.Equal("http", scheme.GetProperty("type").GetString());
        Assert.Equal("bearer", scheme.GetProperty("scheme").GetString());

        // Which operations may take no token at all comes from the endpoints (AllowAnonymous), not from this test.
        var anonymous = app.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>()
            .Where(e => e.Metadata.GetMetadata<IAllowAnonymous>() is not null)
            .SelectMany(e => (e.Metadata.GetMetadata<IHttpMethodMetadata>()?.HttpMethods ?? []).Select(m => $"{m} {OpenApiPath(e)}"))
            .ToHashSet();
        var wrong = new List<string>();
        foreach (var (key, op) in Operations(doc))
        {
            var requirements = op.TryGetProperty("security", out var s) ? s.EnumerateArray().ToList() : null;
            var scopes = requirements?.SelectMany(r => r.EnumerateObject()).SelectMany(r => r.Value.EnumerateArray()).Select(v => v.GetString()).ToList();
            if (anonymous.Contains(key))
            {
                if (requirements is not [])
                    wrong.Add($"{key}: allows anonymous callers but its security is not empty");
            }
            else if (scopes is null or [])
                wrong.Add($"{key}: no security requirement with scopes (its authorization policy is unknown to ApiReference/OpenApiSecurity?)");
        }
        Assert.True(wrong.Count == 0, string.Join("\n", wrong));

        // Spot checks against what the policies enforce (Scopes.AcceptedBy).
        var ops = Operations(doc).ToDictionary(o => o.Key, o => o.Operation);
        Assert.Equal(["ingest", "agent", "admin"], ScopesOf(ops["POST /api/v1/runs"]));
        Assert.Equal(["admin"], ScopesOf(ops["POST /api/v1/projects"]));
        Assert.Equal(["read", "admin"], ScopesOf(ops["POST /api/v1/alerts/{alertId}/state"]));
        // A public read: anonymous allowed ({}), private projects with read or admin.
        var overview = ops["GET /api/v1/projects/{slug}/overview"].GetProperty("security").EnumerateArray().ToList();
        Assert.Empty(overview[0].EnumerateObject());
        Assert.Equal(["read", "admin"], ScopesOf(ops["GET /api/v1/projects/{slug}/overview"]));
    }

    [Fact]
    public async Task Approving_a_pull_request_is_described_with_the_head_it_names_and_its_409()
    {
        using var doc = JsonDocument.Parse(await DocumentAsync());
        var post = doc.RootElement.GetProperty("paths").GetProperty("/api/v1/projects/{slug}/pulls/{pr}/approve").GetProperty("post");
        var schema = post.GetProperty("requestBody").GetProperty("content").GetProperty("application/json").GetProperty("schema");
        // The body is optional (a missing one is answered with a problem that says what to send): its schema may be a
        // reference, or a choice of null and a reference.
        JsonElement Resolve(JsonElement s) => s.TryGetProperty("$ref", out var r)
            ? Resolve(doc.RootElement.GetProperty("components").GetProperty("schemas").GetProperty(r.GetString()!.Split('/')[^1]))
            : s.TryGetProperty("oneOf", out var any) || s.TryGetProperty("anyOf", out any)
                ? any.EnumerateArray().Select(Resolve).First(x => x.TryGetProperty("properties", out _)) : s;
        Assert.True(Resolve(schema).GetProperty("properties").TryGetProperty("headCommit", out _), schema.ToString());
        Assert.True(post.GetProperty("responses").TryGetProperty("409", out _));
        Assert.Contains("headCommit", post.GetProperty("description").GetString());
    }

    [Fact]
    public async Task Posting_a_run_is_described_with_its_multipart_body_and_an_example()
    {
        using var doc = JsonDocument.Parse(await DocumentAsync());
        var post = doc.RootElement.GetProperty("paths").GetProperty("/api/v1/runs").GetProperty("post");
        var multipart = post.GetProperty("requestBody").GetProperty("content").GetProperty("multipart/form-data");
        var properties = multipart.GetProperty("schema").GetProperty("properties");
        Assert.True(properties.TryGetProperty("run", out _));
        Assert.True(properties.TryGetProperty("files", out _));
        var example = multipart.GetProperty("examples").EnumerateObject().First().Value.GetProperty("value");
        Assert.Equal("rivulet", example.GetProperty("run").GetProperty("project").GetString());
        Assert.Equal("application/json", multipart.GetProperty("encoding").GetProperty("run").GetProperty("contentType").GetString());
        Assert.Contains(post.GetProperty("parameters").EnumerateArray(), p => p.GetProperty("name").GetString() == "Idempotency-Key");
    }

    [Fact]
    public async Task The_api_reference_page_renders_the_document()
    {
        var client = app.CreateClient();
        var response = await client.GetAsync("/api-reference/");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var html = await response.Content.ReadAsStringAsync();
        Assert.Contains("openapi/v1.json", html);
        // Its script is served by the service itself, not from a CDN.
        foreach (Match m in ScriptSource().Matches(html))
        {
            var src = m.Groups[1].Value;
            Assert.False(src.StartsWith("http", StringComparison.Ordinal), $"the reference loads {src} from another origin");
            Assert.Equal(HttpStatusCode.OK, (await client.GetAsync(new Uri(new Uri(client.BaseAddress!, "/api-reference/"), src))).StatusCode);
        }
    }

    private static string[] ScopesOf(JsonElement op) =>
        op.GetProperty("security").EnumerateArray().SelectMany(r => r.EnumerateObject()).SelectMany(r => r.Value.EnumerateArray())
            .Select(v => v.GetString()!).ToArray();

    /// <summary>The route as the document spells it: constraints and catch-all stars dropped.</summary>
    private static string OpenApiPath(RouteEndpoint e) =>
        RouteConstraint().Replace(e.RoutePattern.RawText!.Replace("**", "").Replace("*", ""), "}").TrimEnd('/') is var p && p.StartsWith('/') ? p : "/" + p;

    [GeneratedRegex(@":[^}]+\}")]
    private static partial Regex RouteConstraint();

    [GeneratedRegex("<script[^>]*src=\"([^\"]+)\"")]
    private static partial Regex ScriptSource();
}
