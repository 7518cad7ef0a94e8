using Hangfire;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Data;

namespace PerfService.Background;

/// <summary>
/// Deletes raw uploads older than <see cref="RetentionOptions.ArtifactDays"/> (default 90). Results stay (samples are
/// summarised later by <see cref="SampleRetentionJob"/>): they are what history and comparisons read; the raw files
/// only matter for re-parsing recent runs. CPU profiles are artifacts of their runs too and go with them.
/// </summary>
[DisableConcurrentExecution(timeoutInSeconds: 600)]
public sealed class ArtifactRetentionJob(
    PerfDbContext db,
    IOptions<RetentionOptions> options,
    TimeProvider time,
    ILogger<ArtifactRetentionJob> logger
)
{
    public async Task RunAsync(CancellationToken ct)
    {
        var days = options.Value.ArtifactDays;
        if (days <= 0)
            return;
        var cutoff = time.GetUtcNow().AddDays(-days);
        var deleted = await db.Artifacts.Where(a => a.CreatedAt < cutoff).ExecuteDeleteAsync(ct);
        var profiles = await db.CpuProfiles.Where(p => p.CreatedAt < cutoff).ExecuteDeleteAsync(ct);
        if (deleted + profiles > 0)
            logger.LogInformation(
                "Deleted {Count} raw artifacts and {Profiles} CPU profiles older than {Days} days",
                deleted,
                profiles,
                days
            );
    }
}
