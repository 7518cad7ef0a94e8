using Microsoft.EntityFrameworkCore;
using PerfService.Data;

namespace PerfService.Access;

/// <summary>The project a request is about, resolved from its route before the handler runs.</summary>
public sealed record ResolvedProject(long Id, string Slug, bool IsPublic);

/// <summary>
/// The route parameters that name something owned by a project, and how each is traced to its project. Every route
/// parameter of the API is either one of these or listed in <see cref="Unowned"/>; a test fails on any other name, so
/// a new kind of id cannot slip past the check.
/// </summary>
public static class ProjectResources
{
    public const string Slug = "slug";
    public const string RunId = "runId";
    public const string AlertId = "alertId";
    public const string JobId = "jobId";
    public const string AlertGroupId = "alertGroupId";
    public const string CpuProfileId = "cpuProfileId";

    public static readonly string[] Owned = [Slug, RunId, AlertId, JobId, AlertGroupId, CpuProfileId];

    /// <summary>
    /// Route parameters that need no project check of their own: a pull-request number and an artifact path sit
    /// under a slug or run that is checked; an agent belongs to its token (the claim is confined to the token's
    /// project instead); a page path is a static file.
    /// </summary>
    public static readonly string[] Unowned = ["pr", "path", "agentId"];

    public static Task<ResolvedProject?> ResolveAsync(
        PerfDbContext db,
        string parameter,
        string value,
        CancellationToken ct
    )
    {
        if (parameter == Slug)
            return db
                .Projects.AsNoTracking()
                .Where(p => p.Slug == value)
                .Select(p => new ResolvedProject(p.Id, p.Slug, p.IsPublic))
                .FirstOrDefaultAsync(ct);
        if (!long.TryParse(value, out var id))
            return Task.FromResult<ResolvedProject?>(null);
        IQueryable<long> owner = parameter switch
        {
            RunId => db.Runs.Where(r => r.Id == id).Select(r => r.ProjectId),
            AlertId => db.Alerts.Where(a => a.Id == id).Select(a => a.ProjectId),
            JobId => db.Jobs.Where(j => j.Id == id).Select(j => j.ProjectId),
            AlertGroupId => db.AlertGroups.Where(g => g.Id == id).Select(g => g.ProjectId),
            CpuProfileId => db.CpuProfiles.Where(p => p.Id == id).Select(p => p.ProjectId),
            _ => throw new ArgumentOutOfRangeException(
                nameof(parameter),
                parameter,
                "not a project-owned route parameter"
            ),
        };
        return db
            .Projects.AsNoTracking()
            .Where(p => owner.Contains(p.Id))
            .Select(p => new ResolvedProject(p.Id, p.Slug, p.IsPublic))
            .FirstOrDefaultAsync(ct);
    }
}
