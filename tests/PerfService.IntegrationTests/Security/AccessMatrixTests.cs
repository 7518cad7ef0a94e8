using System.Net;
using System.Net.Http.Headers;
using System.Text;
using PerfService.IntegrationTests.Infrastructure;

namespace PerfService.IntegrationTests.Security;

/// <summary>A service with one public and one private project, and a token of each scope.</summary>
public sealed class AccessMatrixApp : PerfServiceApp
{
    public Dictionary<string, string?> Tokens { get; } = new();

    public override async Task InitializeAsync()
    {
        await base.InitializeAsync();
        await CreateProjectAsync("open-project");
        await CreateProjectAsync("secret-project", isPublic: false);
        Tokens["none"] = null;
        foreach (var scope in new[] { "read", "ingest", "agent", "admin" }) Tokens[scope] = await CreateTokenAsync(scope);
    }
}

/// <summary>
/// Each endpoint × each scope (and none) → allowed or denied. "Denied" is 401 without a token, 403 with the wrong
/// scope, or 404 where a private project must not even be seen; "allowed" is anything else (a 400 for an empty body
/// is still past the door).
/// </summary>
public class AccessMatrixTests(AccessMatrixApp app) : IClassFixture<AccessMatrixApp>
{
    // method, path, scopes that may pass (space-separated; "*" = everyone including no token)
    public static TheoryData<string, string, string> Endpoints => new()
    {
        { "GET", "/healthz", "*" },
        { "GET", "/readyz", "*" },
        { "GET", "/api/v1/projects/open-project", "*" },
        { "GET", "/api/v1/projects/secret-project", "read admin" },
        { "GET", "/api/v1/profiles", "*" },
        { "POST", "/api/v1/projects", "admin" },
        { "GET", "/api/v1/projects/open-project/thresholds", "*" },
        { "GET", "/api/v1/projects/secret-project/thresholds", "read admin" },
        { "PUT", "/api/v1/projects/open-project/thresholds", "admin" },
        { "PUT", "/api/v1/projects/secret-project/thresholds", "admin" },
        { "POST", "/api/v1/runs", "ingest agent admin" },
        { "POST", "/api/v1/agents/register", "agent admin" },
        { "POST", "/api/v1/agents/1/claim?waitSeconds=0", "agent admin" },
        { "POST", "/api/v1/jobs/1/heartbeat", "agent admin" },
        { "POST", "/api/v1/jobs/1/complete", "agent admin" },
        { "POST", "/api/v1/jobs", "admin" },
        { "GET", "/api/v1/jobs", "*" },
        { "GET", "/api/v1/projects/secret-project/overview", "read admin" },
        { "GET", "/hangfire", "admin" },
    };

    public static TheoryData<string, string, string, string> Matrix
    {
        get
        {
            var data = new TheoryData<string, string, string, string>();
            foreach (var row in Endpoints)
                foreach (var scope in new[] { "none", "read", "ingest", "agent", "admin" })
                    data.Add((string)row[0], (string)row[1], (string)row[2], scope);
            return data;
        }
    }

    [Theory]
    [MemberData(nameof(Matrix))]
    public async Task Endpoint_allows_exactly_its_scopes(string method, string path, string allowed, string scope)
    {
        var client = app.CreateClient(new() { AllowAutoRedirect = false });
        var request = new HttpRequestMessage(new HttpMethod(method), path);
        if (app.Tokens[scope] is { } token) request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        if (method is "POST" or "PUT") request.Content = new StringContent("{}", Encoding.UTF8, "application/json");

        var status = (await client.SendAsync(request)).StatusCode;

        var shouldPass = allowed == "*" || allowed.Split(' ').Contains(scope);
        var denied = status is HttpStatusCode.Unauthorized or HttpStatusCode.Forbidden
                     || (path.Contains("secret-project") && status == HttpStatusCode.NotFound);
        Assert.True(shouldPass != denied, $"{method} {path} with {scope}: got {(int)status}, expected {(shouldPass ? "allowed" : "denied")}");
    }

    [Fact]
    public async Task A_revoked_token_is_refused()
    {
        var token = await app.CreateTokenAsync("admin");
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        Assert.NotEqual(HttpStatusCode.Unauthorized, (await client.PostAsync("/api/v1/jobs", new StringContent("{}", Encoding.UTF8, "application/json"))).StatusCode);

        await app.WithDbAsync(db => PerfService.Auth.TokenCommands.RevokeAsync(db, "test-admin"));
        Assert.Equal(HttpStatusCode.Unauthorized, (await client.PostAsync("/api/v1/jobs", new StringContent("{}", Encoding.UTF8, "application/json"))).StatusCode);
    }

    [Fact]
    public async Task Tokens_are_stored_hashed()
    {
        var token = await app.CreateTokenAsync("read");
        var stored = await app.WithDbAsync(db => Task.FromResult(db.Tokens.Select(t => t.Hash).ToList()));
        Assert.DoesNotContain(stored, h => Encoding.UTF8.GetString(h).Contains(token));
        Assert.Contains(stored, h => h.SequenceEqual(PerfService.Auth.TokenHasher.Hash(token)));
    }
}
