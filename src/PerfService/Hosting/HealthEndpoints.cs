using Microsoft.AspNetCore.Diagnostics.HealthChecks;

namespace PerfService.Hosting;

public static class HealthEndpoints
{
    /// <summary><c>/healthz</c>: the process is alive (no dependencies). <c>/readyz</c>: it can serve, i.e. the database answers.</summary>
    public static IEndpointRouteBuilder MapHealthEndpoints(this IEndpointRouteBuilder app)
    {
        app.MapHealthChecks("/healthz", new HealthCheckOptions { Predicate = _ => false });
        app.MapHealthChecks("/readyz", new HealthCheckOptions { Predicate = c => c.Tags.Contains("ready") });
        return app;
    }
}
