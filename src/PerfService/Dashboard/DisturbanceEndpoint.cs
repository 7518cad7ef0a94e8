using System.ComponentModel;
using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Access;
using PerfService.Core.Contracts;
using PerfService.Data;
using PerfService.Hosting.Http;
using PerfService.PullRequests;

namespace PerfService.Dashboard;

/// <summary>One run's disturbance: what else used its machine while it ran (see <see cref="Disturbance"/>).</summary>
public sealed record DisturbancePointDto(
    long RunId,
    DateTimeOffset At,
    string Commit,
    string Role,
    string Agent,
    Disturbance Disturbance,
    bool LeftOut
);

/// <summary>
/// A profile's disturbance over time: the latest runs of a project on one profile that an agent measured, oldest first,
/// so that a machine that became noisy (a backup job, a neighbour, throttling) shows as a line going up.
/// </summary>
internal static class DisturbanceEndpoint
{
    public static async Task<Results<Ok<List<DisturbancePointDto>>, ProblemHttpResult>> Get(
        string slug,
        [Description("The hardware profile, e.g. ryzen-9950x.")] string profile,
        [Description("Latest runs: 1–1000, default 200.")] int? limit,
        PerfDbContext db,
        ClaimsPrincipal user,
        CancellationToken ct
    )
    {
        var project = await db.FindProjectAsync(user, slug, ct);
        if (project is null)
            return Problems.ProjectNotFound(slug);
        var runs = await db
            .Runs.AsNoTracking()
            .Where(r => r.ProjectId == project.Id && r.Profile!.Name == profile && r.Disturbance != null)
            .OrderByDescending(r => r.CreatedAt)
            .ThenByDescending(r => r.Id)
            .Take(Math.Clamp(limit ?? 200, 1, 1000))
            .Select(r => new
            {
                r.Id,
                r.CreatedAt,
                r.Commit!.Sha,
                r.Role,
                Agent = r.Agent!.Name,
                r.Disturbance,
                r.Disturbed,
            })
            .ToListAsync(ct);
        return TypedResults.Ok(
            runs.AsEnumerable()
                .Reverse()
                .Select(r => new DisturbancePointDto(
                    r.Id,
                    r.CreatedAt,
                    r.Sha,
                    r.Role.Name(),
                    r.Agent ?? "",
                    PullRequestDisturbance.Read(r.Disturbance)!,
                    r.Disturbed
                ))
                .ToList()
        );
    }
}
