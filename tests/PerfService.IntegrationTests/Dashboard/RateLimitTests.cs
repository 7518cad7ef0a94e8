using System.Net;
using System.Net.Http.Json;
using Microsoft.AspNetCore.Mvc;
using PerfService.Auth;
using PerfService.IntegrationTests.Infrastructure;

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
        // Other features' endpoints are not limited by this policy.
        Assert.Equal(HttpStatusCode.OK, (await first.GetAsync("/api/v1/projects/limited")).StatusCode);
    }
}
