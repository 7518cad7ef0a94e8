using System.Globalization;
using System.Security.Claims;
using Microsoft.EntityFrameworkCore;
using PerfService.Auth;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.Dashboard;

internal sealed record VisibleProject(long Id, string Slug, string Name, string DefaultBranch, bool IsPublic, string? RepositoryUrl);

/// <summary>
/// Public projects are readable by anyone; private ones need a read or admin token, and a token bound to one project
/// sees only that project's private data. A hidden project answers 404, like a missing one, so its name does not leak.
/// </summary>
internal static class ProjectAccess
{
    public static IQueryable<Project> VisibleProjects(this PerfDbContext db, ClaimsPrincipal user)
    {
        var seePrivate = user.HasAnyScope(Scopes.Read, Scopes.Admin);
        var boundTo = BoundProject(user);
        return db.Projects.AsNoTracking().Where(p => p.IsPublic || (seePrivate && (boundTo == null || p.Id == boundTo)));
    }

    public static Task<VisibleProject?> FindProjectAsync(this PerfDbContext db, ClaimsPrincipal user, string slug, CancellationToken ct) =>
        db.VisibleProjects(user).Where(p => p.Slug == slug)
            .Select(p => new VisibleProject(p.Id, p.Slug, p.Name, p.DefaultBranch, p.IsPublic, p.RepositoryUrl))
            .FirstOrDefaultAsync(ct);

    public static Task<bool> CanSeeProjectAsync(this PerfDbContext db, ClaimsPrincipal user, long projectId, CancellationToken ct) =>
        db.VisibleProjects(user).AnyAsync(p => p.Id == projectId, ct);

    private static long? BoundProject(ClaimsPrincipal user) =>
        long.TryParse(user.FindFirstValue("project"), NumberStyles.None, CultureInfo.InvariantCulture, out var id) ? id : null;
}
