using PerfService.Access;

namespace PerfService.Hosting.Telemetry;

/// <summary>
/// <c>GET /api/v1/service/status</c>: the Prometheus essentials (benchmark jobs, agents online, background queues and
/// their oldest job, failures) as JSON, for the dashboard's Service page and teams without Prometheus. Service admins
/// only.
/// </summary>
public static class ServiceStatusApi
{
    public static IEndpointRouteBuilder MapServiceStatusApi(this IEndpointRouteBuilder app)
    {
        app.MapGet("/api/v1/service/status", (ServiceSnapshot snapshot, CancellationToken ct) => snapshot.GetAsync(ct))
            .RequireAuthorization(ProjectAccess.ServiceAdminPolicy)
            .WithTags("Service")
            .WithSummary("Service status: benchmark jobs, agents online, background queues and failures")
            .Produces<ServiceStatus>();
        return app;
    }
}
