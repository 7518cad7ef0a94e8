using System.Text.Json;
using System.Text.RegularExpressions;

namespace PerfService.IntegrationTests.Dashboard;

public partial class PlatformTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    [Fact]
    public async Task The_OpenAPI_document_describes_the_history_api()
    {
        var response = await app.CreateClient().GetAsync("/openapi/v1.json");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        using var doc = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        var paths = doc.RootElement.GetProperty("paths");
        foreach (var path in new[] { "/api/v1/projects/{slug}/series", "/api/v1/projects/{slug}/benchmarks", "/api/v1/projects/{slug}/overview",
                     "/api/v1/projects/{slug}/compare", "/api/v1/runs/{runId}/verdicts", "/api/v1/alerts/{alertId}/state" })
            Assert.True(paths.TryGetProperty(path, out _), $"{path} is missing from the OpenAPI document");
        var series = paths.GetProperty("/api/v1/projects/{slug}/series").GetProperty("get");
        var parameters = series.GetProperty("parameters").EnumerateArray().Select(p => p.GetProperty("name").GetString()).ToList();
        Assert.Superset(new HashSet<string?> { "benchmark", "measure", "profile", "branch", "from", "to", "limit", "cursor", "format" }, parameters.ToHashSet());
        var ok = series.GetProperty("responses").GetProperty("200").GetProperty("content");
        var shapes = ok.GetProperty("application/json").GetProperty("schema").GetProperty("oneOf").EnumerateArray().Select(s => s.GetProperty("$ref").GetString());
        Assert.Equal(["#/components/schemas/SeriesDto", "#/components/schemas/SeriesColumnsDto"], shapes);
        Assert.True(ok.TryGetProperty("text/csv", out _));
        var columns = doc.RootElement.GetProperty("components").GetProperty("schemas").GetProperty("SeriesColumnsDto").GetProperty("properties");
        Assert.True(columns.TryGetProperty("shas", out _));
    }

    [Theory]
    [InlineData("/", "Projects")]
    [InlineData("/index.html", "Projects")]
    [InlineData("/explorer", "Benchmark explorer")]
    [InlineData("/alerts.html", "Alerts")]
    [InlineData("/agents", "Agents and jobs")]
    public async Task Pages_are_served_with_security_headers(string path, string title)
    {
        var response = await app.CreateClient().GetAsync(path);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains($"<title>{title} · PerfService</title>", await response.Content.ReadAsStringAsync());
        AssertSecurityHeaders(response);
    }

    [Fact]
    public async Task Scripts_and_the_vendored_chart_library_are_served_with_the_same_headers()
    {
        foreach (var path in new[] { "/js/api.js", "/js/charts.js", "/css/site.css", "/lib/chart.js/chart.umd.min.js", "/lib/chartjs-plugin-zoom/chartjs-plugin-zoom.min.js" })
        {
            var response = await app.CreateClient().GetAsync(path);
            Assert.True(response.StatusCode == HttpStatusCode.OK, path);
            AssertSecurityHeaders(response);
        }
    }

    [Fact]
    public async Task Unknown_pages_and_api_routes_are_404s()
    {
        Assert.Equal(HttpStatusCode.NotFound, (await app.CreateClient().GetAsync("/no-such-page")).StatusCode);
        var api = await app.CreateClient().GetAsync("/api/v1/projects/x/nothing-here");
        Assert.Equal(HttpStatusCode.NotFound, api.StatusCode);
        Assert.Equal("application/problem+json", api.Content.Headers.ContentType?.MediaType);
    }

    /// <summary>The CSP forbids inline script and style, and data must never become markup: check the sources say so.</summary>
    [Fact]
    public void Pages_have_no_inline_code_and_scripts_never_write_html()
    {
        var root = Path.Combine(Fixtures.Root, "..", "..", "src", "PerfService", "wwwroot");
        var pages = Directory.GetFiles(root, "*.html");
        Assert.True(pages.Length >= 8);
        foreach (var page in pages)
        {
            var html = File.ReadAllText(page);
            Assert.DoesNotMatch(InlineScript(), html);
            Assert.DoesNotMatch(InlineHandlerOrStyle(), html);
            // The header is drawn by js/layout.js; a page keeps only the empty placeholder, not a copy of the navigation.
            Assert.Contains("<header class=\"top\"></header>", html);
            Assert.DoesNotContain("<nav", html);
        }
        foreach (var script in Directory.GetFiles(Path.Combine(root, "js"), "*.js", SearchOption.AllDirectories))
            Assert.DoesNotMatch(HtmlSink(), File.ReadAllText(script));
    }

    private static void AssertSecurityHeaders(HttpResponseMessage response)
    {
        var csp = string.Join(";", response.Headers.GetValues("Content-Security-Policy"));
        Assert.Contains("default-src 'self'", csp);
        Assert.Contains("frame-ancestors 'none'", csp);
        Assert.Equal("nosniff", Assert.Single(response.Headers.GetValues("X-Content-Type-Options")));
        Assert.Equal("no-referrer", Assert.Single(response.Headers.GetValues("Referrer-Policy")));
    }

    [GeneratedRegex(@"<script(?![^>]*\bsrc=)[^>]*>", RegexOptions.IgnoreCase)]
    private static partial Regex InlineScript();

    [GeneratedRegex(@"<[^>]+\s(on[a-z]+|style)\s*=", RegexOptions.IgnoreCase)]
    private static partial Regex InlineHandlerOrStyle();

    [GeneratedRegex(@"innerHTML|outerHTML|insertAdjacentHTML|document\.write")]
    private static partial Regex HtmlSink();
}
