using System.Net.Http.Headers;
using System.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using PerfService.Access;
using Xunit.Abstractions;

namespace PerfService.IntegrationTests.Security;

/// <summary>
/// Every endpoint the service maps (read from its EndpointDataSource) × every scope and anonymous × unbound, bound to
/// the target project, bound to the other one × a public and a private project: real requests against real seeded
/// data, each answer checked against the rule in <see cref="AccessExpectations"/>.
/// </summary>
public class AccessMatrixTests(AccessMatrixApp app, ITestOutputHelper output) : IClassFixture<AccessMatrixApp>
{
    private List<(string Key, RouteEndpoint Endpoint)> Endpoints()
    {
        _ = app.Server; // builds the host
        return app.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>()
            .Select(e => (Key(e), e)).ToList();
    }

    private static string Key(RouteEndpoint e) =>
        $"{(e.Metadata.GetMetadata<IHttpMethodMetadata>() is { } m ? string.Join(',', m.HttpMethods) : "*")} {e.RoutePattern.RawText}";

    [Fact]
    public void Every_endpoint_has_exactly_one_row_and_every_row_an_endpoint()
    {
        var keys = Endpoints().Select(e => e.Key).ToList();
        Assert.Equal(keys.Count, keys.Distinct().Count());
        var missing = keys.Except(AccessExpectations.Rows.Keys).ToList();
        var stale = AccessExpectations.Rows.Keys.Except(keys).ToList();
        Assert.True(missing.Count == 0, "endpoints without a row in AccessExpectations: " + string.Join("; ", missing));
        Assert.True(stale.Count == 0, "rows without an endpoint: " + string.Join("; ", stale));
    }

    [Fact]
    public void Every_route_parameter_is_one_the_access_check_knows()
    {
        var known = ProjectResources.Owned.Concat(ProjectResources.Unowned).ToHashSet();
        var unknown = Endpoints().SelectMany(e => e.Endpoint.RoutePattern.Parameters
                .Where(p => !known.Contains(p.Name) && !((e.Key.StartsWith("GET /openapi") || e.Key.StartsWith("GET /api-reference")) && p.Name == "documentName"))
                .Select(p => $"{e.Key}: {{{p.Name}}}"))
            .ToList();
        Assert.True(unknown.Count == 0, "route parameters ProjectAccess does not trace to a project (name them slug, runId, alertId or jobId, or list them as unowned): "
            + string.Join("; ", unknown));
    }

    [Fact]
    public async Task Every_endpoint_answers_every_caller_as_the_rule_says()
    {
        var failures = new List<string>();
        var cases = 0;
        foreach (var (key, _) in Endpoints().OrderBy(e => e.Key, StringComparer.Ordinal))
        {
            if (!AccessExpectations.Rows.TryGetValue(key, out var row)) continue; // reported by the row test
            foreach (var target in new[] { app.Public, app.Private })
                foreach (var scope in AccessMatrixApp.ScopesAndNone)
                    foreach (var binding in scope == "none" ? [Binding.Unbound] : Enum.GetValues<Binding>())
                    {
                        cases++;
                        var caller = app.CallerFor(scope, binding, target);
                        using var request = row.Request(target, caller, cases);
                        if (caller.Token is { } token) request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
                        using var response = await app.Client(null).SendAsync(request);
                        var status = (int)response.StatusCode;
                        var (statuses, listed) = AccessExpectations.Expect(row, scope, binding, target.IsPublic);
                        var what = $"{key} on {(target.IsPublic ? "public" : "private")} as {scope}/{binding}: got {status}";
                        if (!statuses.Contains(status))
                            failures.Add($"{what}, expected {string.Join(" or ", statuses)} ({Short(await response.Content.ReadAsStringAsync())})");
                        else if (listed is { } shown && (await response.Content.ReadAsStringAsync()).Contains(row.Marker!(target)) != shown)
                            failures.Add($"{what}, the project's items {(shown ? "missing from" : "leaked into")} the list");
                    }
        }
        output.WriteLine($"access matrix: {cases} cases, {failures.Count} failures");
        Assert.True(failures.Count == 0, $"{failures.Count} of {cases} cases broke the rule:\n" + string.Join("\n", failures));
    }

    [Fact]
    public async Task A_private_projects_ids_cannot_be_read_through_a_public_projects_routes()
    {
        var anonymous = app.Client(null);
        var (open, secret) = (app.Public, app.Private);
        foreach (var url in new[]
                 {
                     $"/api/v1/projects/{open.Slug}/series?benchmark={secret.BenchmarkId}",
                     $"/api/v1/projects/{open.Slug}/compare?base=run:{secret.RunId}&head=run:{secret.RunId}",
                     $"/api/v1/projects/{open.Slug}/compare?base=run:{open.RunId}&head=run:{secret.RunId}",
                     $"/api/v1/projects/{open.Slug}/runs?pr={secret.PullRequest}",
                 })
        {
            var response = await anonymous.GetAsync(url);
            var body = await response.Content.ReadAsStringAsync();
            Assert.False(body.Contains(secret.Slug) || (response.IsSuccessStatusCode && url.Contains("compare")), $"{url}: {(int)response.StatusCode} {Short(body)}");
        }
    }

    private static string Short(string body) => body.Length > 160 ? body[..160] : body;

    [Fact]
    public async Task A_revoked_token_is_refused()
    {
        var token = await app.CreateTokenAsync("admin");
        var client = app.Client(token);
        Assert.NotEqual(401, (int)(await client.PostAsync("/api/v1/jobs", new StringContent("{}", Encoding.UTF8, "application/json"))).StatusCode);

        await app.WithDbAsync(db => PerfService.Auth.TokenCommands.RevokeAsync(db, "test-admin"));
        Assert.Equal(401, (int)(await client.PostAsync("/api/v1/jobs", new StringContent("{}", Encoding.UTF8, "application/json"))).StatusCode);
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
