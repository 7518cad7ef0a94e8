using System.Globalization;
using System.Security.Claims;
using Microsoft.EntityFrameworkCore;
using PerfService.Auth;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.Access;

public enum AccessDecision
{
    Allowed,
    Hidden,
    Forbidden,
}

/// <summary>
/// The one visibility rule. A public project is readable by anyone; a private one by read and admin tokens. A token
/// bound to a project (ApiToken.ProjectId, claim "project") reads other public projects like anyone, sees no other
/// private project, and acts (triage, ingest, agent work, administration) on its own project only. What a scope may
/// do is the endpoint's authorization policy; this class adds only the project. A project the caller may not see
/// answers 404, like a missing one, so its name does not leak; acting on a visible project that is not the token's
/// own answers 403.
/// </summary>
public static class ProjectAccess
{
    public const string ProjectClaim = "project";

    /// <summary>Creating projects and the Hangfire dashboard concern every project: an admin token bound to
    /// none.</summary>
    public const string ServiceAdminPolicy = "service-admin";

    public static long? BoundProject(this ClaimsPrincipal user) =>
        long.TryParse(user.FindFirstValue(ProjectClaim), NumberStyles.None, CultureInfo.InvariantCulture, out var id)
            ? id
            : null;

    public static bool IsServiceAdmin(this ClaimsPrincipal user) =>
        user.HasAnyScope(Scopes.Admin) && user.BoundProject() is null;

    /// <param name="acting">false for reads (GET); true for anything that changes or claims something.</param>
    public static AccessDecision Decide(ClaimsPrincipal user, long projectId, bool isPublic, bool acting) =>
        Decide(
            user.BoundProject(),
            user.HasAnyScope(Scopes.Read, Scopes.Admin),
            user.Identity?.IsAuthenticated == true,
            projectId,
            isPublic,
            acting
        );

    public static AccessDecision Decide(
        long? bound,
        bool readsPrivate,
        bool authenticated,
        long projectId,
        bool isPublic,
        bool acting
    )
    {
        if (bound is { } own && own != projectId)
            return !isPublic ? AccessDecision.Hidden
                : acting ? AccessDecision.Forbidden
                : AccessDecision.Allowed;
        // Acting on an unseen private project is the ingest and agent scopes' job (they post and run for it); the
        // scope itself was checked by the endpoint's policy.
        if (isPublic || readsPrivate || (acting && authenticated))
            return AccessDecision.Allowed;
        return AccessDecision.Hidden;
    }

    /// <summary>The projects a caller may read: the filter of every list.</summary>
    public static IQueryable<Project> VisibleProjects(this PerfDbContext db, ClaimsPrincipal user)
    {
        var seePrivate = user.HasAnyScope(Scopes.Read, Scopes.Admin);
        var boundTo = user.BoundProject();
        return db
            .Projects.AsNoTracking()
            .Where(p => p.IsPublic || (seePrivate && (boundTo == null || p.Id == boundTo)));
    }

    public static Task<VisibleProject?> FindProjectAsync(
        this PerfDbContext db,
        ClaimsPrincipal user,
        string slug,
        CancellationToken ct
    ) =>
        db.VisibleProjects(user)
            .Where(p => p.Slug == slug)
            .Select(p => new VisibleProject(p.Id, p.Slug, p.Name, p.DefaultBranch, p.IsPublic, p.RepositoryUrl))
            .FirstOrDefaultAsync(ct);

    /// <summary>For routes whose project comes in the body (runs, jobs): refused like a route's project would
    /// be.</summary>
    public static async Task<(long Id, AccessDecision Decision)?> DecideAsync(
        PerfDbContext db,
        ClaimsPrincipal user,
        string slug,
        bool acting,
        CancellationToken ct
    )
    {
        var project = await db
            .Projects.AsNoTracking()
            .Where(p => p.Slug == slug)
            .Select(p => new { p.Id, p.IsPublic })
            .FirstOrDefaultAsync(ct);
        return project is null ? null : (project.Id, Decide(user, project.Id, project.IsPublic, acting));
    }
}

public sealed record VisibleProject(
    long Id,
    string Slug,
    string Name,
    string DefaultBranch,
    bool IsPublic,
    string? RepositoryUrl
);
