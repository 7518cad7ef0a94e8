using Microsoft.AspNetCore.Diagnostics.HealthChecks;

namespace PerfService.Hosting;

public static class HealthEndpoints
{
    /// <summary><c>/healthz</c>: the process is alive (no dependencies). <c>/readyz</c>: it can serve, i.e. the
    /// database answers.</summary>
    public static IEndpointRouteBuilder MapHealthEndpoints(this IEndpointRouteBuilder app)
    {
        app.MapHealthChecks("/healthz", new HealthCheckOptions { Predicate = _ => false });
        // /readyz queries the database: rate-limited like every route that does, so it cannot be used to load it.
        app.MapHealthChecks("/readyz", new HealthCheckOptions { Predicate = c => c.Tags.Contains("ready") })
            .RequireRateLimiting(Hosting.Http.DashboardRateLimiting.Policy);
        return app;
    }
}
