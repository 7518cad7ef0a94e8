using Microsoft.AspNetCore.Mvc;

namespace PerfService.IntegrationTests.Dashboard;

public class TinyRateLimitApp : PerfServiceApp
{
    protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?> { ["RateLimit:PermitPerMinute"] = "3" };
}

public class RateLimitTests(TinyRateLimitApp app) : IClassFixture<TinyRateLimitApp>
{
    [Fact]
    public async Task Each_token_has_its_own_budget_and_going_over_is_a_429_problem()
    {
        await app.CreateProjectAsync("limited");
        var first = await app.ClientWithScopesAsync(Scopes.Read);
        for (var i = 0; i < 3; i++)
            Assert.Equal(HttpStatusCode.OK, (await first.GetAsync("/api/v1/projects/limited/overview")).StatusCode);

        var over = await first.GetAsync("/api/v1/projects/limited/benchmarks");
        Assert.Equal(HttpStatusCode.TooManyRequests, over.StatusCode);
        Assert.Equal("application/problem+json", over.Content.Headers.ContentType?.MediaType);
        Assert.Equal(429, (await over.Content.ReadFromJsonAsync<ProblemDetails>())!.Status);

        var second = await app.ClientWithScopesAsync(Scopes.Read);
        Assert.Equal(HttpStatusCode.OK, (await second.GetAsync("/api/v1/projects/limited/overview")).StatusCode);
        // Every API group shares the budget (issue 12 §4); health probes stay outside it.
        Assert.Equal(HttpStatusCode.TooManyRequests, (await first.GetAsync("/api/v1/projects/limited")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await first.GetAsync("/healthz")).StatusCode);
    }

    [Fact]
    public async Task Every_anonymous_route_group_is_rate_limited()
    {
        await app.CreateProjectAsync("limited-anon");
        var anonymous = app.CreateClient(new() { AllowAutoRedirect = false });
        for (var i = 0; i < 3; i++)
            Assert.Equal(HttpStatusCode.OK, (await anonymous.GetAsync("/api/v1/projects")).StatusCode);

        // Once the address's budget is spent, no anonymous group answers: a group without the limiter would.
        foreach (var (method, path) in new[]
                 {
                     ("GET", "/api/v1/projects"), ("GET", "/api/v1/projects/limited-anon"), ("GET", "/api/v1/profiles"),
                     ("GET", "/api/v1/projects/limited-anon/thresholds"), ("GET", "/api/v1/jobs"), ("GET", "/api/v1/jobs/1"),
                     ("GET", "/api/v1/agents"), ("GET", "/api/v1/runs/1"), ("GET", "/api/v1/runs/1/artifacts/r.json"),
                     ("GET", "/api/v1/projects/limited-anon/pulls/1/report"), ("GET", "/api/v1/projects/limited-anon/pulls/1/comment"),
                     ("GET", "/api/v1/projects/limited-anon/overview"), ("POST", "/api/v1/github/webhook"), ("GET", "/hangfire-login"),
                     ("GET", "/readyz"), ("GET", "/openapi/v1.json"),
                 })
        {
            var response = await anonymous.SendAsync(new HttpRequestMessage(new HttpMethod(method), path) { Content = method == "POST" ? new StringContent("{}") : null });
            Assert.True(response.StatusCode == HttpStatusCode.TooManyRequests, $"{method} {path}: {(int)response.StatusCode}");
        }
    }
}
