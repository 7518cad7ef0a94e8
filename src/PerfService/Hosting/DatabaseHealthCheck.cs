using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Npgsql;
using PerfService.Data;

namespace PerfService.Hosting;

/// <summary>Ready when a trivial query round-trips within a couple of seconds.</summary>
public sealed class DatabaseHealthCheck(PerfDbContext db) : IHealthCheck
{
    public async Task<HealthCheckResult> CheckHealthAsync(
        HealthCheckContext context,
        CancellationToken cancellationToken = default
    )
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(2));
        try
        {
            await db.Database.ExecuteSqlAsync($"SELECT 1", timeout.Token);
            return HealthCheckResult.Healthy();
        }
        catch (Exception e) when (e is NpgsqlException or OperationCanceledException or TimeoutException)
        {
            return HealthCheckResult.Unhealthy("database unreachable", e);
        }
    }
}
