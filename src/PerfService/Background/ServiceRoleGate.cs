using Microsoft.Extensions.Options;
using PerfService.Hosting.Telemetry;

namespace PerfService.Background;

/// <summary>
/// A process with only the background role answers health probes and the metrics scrape, and 404 to everything else:
/// its Kestrel exists for the orchestrator and Prometheus, not for users or agents, so a misrouted request cannot
/// reach the API through a worker.
/// </summary>
public static class ServiceRoleGate
{
    public static WebApplication UseServiceRoles(this WebApplication app)
    {
        var options = app.Services.GetRequiredService<IOptions<BackgroundOptions>>().Value;
        if (options.Runs(ServiceRoles.Web))
            return app;
        var metrics = app.Services.GetRequiredService<IOptions<TelemetryOptions>>().Value.MetricsPath;
        app.Use(
            (http, next) =>
            {
                var path = http.Request.Path;
                if (
                    path.Equals("/healthz", StringComparison.Ordinal)
                    || path.Equals("/readyz", StringComparison.Ordinal)
                    || (metrics.Length > 0 && path.Equals(metrics, StringComparison.Ordinal))
                )
                    return next(http);
                http.Response.StatusCode = StatusCodes.Status404NotFound;
                return Task.CompletedTask;
            }
        );
        return app;
    }
}
