using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Access;
using PerfService.Auth;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Hosting.Http;

namespace PerfService.Projects;

public static partial class ProjectsApi
{
    public static RouteGroupBuilder MapProjectsApi(this IEndpointRouteBuilder app)
    {
        var api = app.MapGroup("/api/v1").WithTags("Projects").RequireRateLimiting(DashboardRateLimiting.Policy);

        api.MapGet("/projects", ListProjects).WithSummary("List the projects you can see");
        api.MapGet("/projects/{slug}", GetProject).WithSummary("Get a project");
        api.MapPost("/projects", CreateProject)
            .RequireAuthorization(ProjectAccess.ServiceAdminPolicy)
            .WithSummary("Create a project")
            .WithDescription("Needs an admin token bound to no project.");
        api.MapPatch("/projects/{slug}", ProjectSettings.UpdateAsync)
            .RequireAuthorization(Scopes.Admin)
            .WithSummary("Change a project's settings")
            .WithDescription(
                "Only the fields sent change (name, visibility, repository, pull-request policy, approval label)."
            );
        api.MapGet("/projects/{slug}/thresholds", ProjectThresholds.GetAsync)
            .WithSummary("Get a project's regression thresholds");
        api.MapPut("/projects/{slug}/thresholds", ProjectThresholds.ReplaceAsync)
            .RequireAuthorization(Scopes.Admin)
            .WithSummary("Replace a project's regression thresholds");
        api.MapGet(
                "/profiles",
                async (PerfDbContext db, CancellationToken ct) =>
                    TypedResults.Ok(
                        await db
                            .Profiles.AsNoTracking()
                            .OrderBy(p => p.Id)
                            .Select(p => new ProfileDto(
                                p.Id,
                                p.Name,
                                p.CpuModel,
                                p.PhysicalCores,
                                p.LogicalCores,
                                p.Arch
                            ))
                            .ToListAsync(ct)
                    )
            )
            .WithSummary("List the machine profiles results are recorded on");
        return api;
    }

    private static async Task<Ok<List<ProjectDto>>> ListProjects(
        PerfDbContext db,
        HttpContext http,
        CancellationToken ct
    )
    {
        return TypedResults.Ok(
            await db.VisibleProjects(http.User).OrderBy(p => p.Slug).Select(p => p.ToDto()).ToListAsync(ct)
        );
    }

    private static async Task<Results<Ok<ProjectDto>, NotFound>> GetProject(
        PerfDbContext db,
        HttpContext http,
        CancellationToken ct
    )
    {
        var id = http.Project().Id;
        var project = await db
            .Projects.AsNoTracking()
            .Where(p => p.Id == id)
            .Select(p => p.ToDto())
            .FirstOrDefaultAsync(ct);
        return project is null ? TypedResults.NotFound() : TypedResults.Ok(project);
    }

    private static async Task<Results<Created<ProjectDto>, ValidationProblem, Conflict<string>>> CreateProject(
        CreateProjectRequest request,
        PerfDbContext db,
        TimeProvider time,
        CancellationToken ct
    )
    {
        if (string.IsNullOrWhiteSpace(request.Slug) || !SlugPattern().IsMatch(request.Slug))
            return TypedResults.ValidationProblem(
                new Dictionary<string, string[]>
                {
                    ["slug"] =
                    [
                        "1 to 100 characters: lower-case letters, digits, '-', '_' and '.', starting with a letter or digit",
                    ],
                }
            );
        if (ProjectSettings.Validate(request.RepositoryUrl, request.Bisect ?? false) is { } invalid)
            return TypedResults.ValidationProblem(invalid);
        if (PullRequestSettings.Validate(request.PullRequests) is { } invalidPullRequests)
            return TypedResults.ValidationProblem(invalidPullRequests);
        if (await db.Projects.AnyAsync(p => p.Slug == request.Slug, ct))
            return TypedResults.Conflict($"project '{request.Slug}' exists");

        var project = new Project
        {
            Slug = request.Slug,
            Name = string.IsNullOrWhiteSpace(request.Name) ? request.Slug : request.Name,
            RepositoryUrl = request.RepositoryUrl,
            DefaultBranch = request.DefaultBranch ?? "main",
            IsPublic = request.IsPublic ?? true,
            GitHubRepository = request.GitHubRepository,
            Bisect = request.Bisect ?? false,
            RoundBudget = request.RoundBudget is >= 1 and <= 100 ? request.RoundBudget : null,
            IncludeProfileMismatch = request.IncludeProfileMismatch ?? false,
            CreatedAt = time.GetUtcNow(),
        };
        PullRequestSettings.Apply(project, request.PullRequests);
        db.Projects.Add(project);
        await db.SaveChangesAsync(ct);
        return TypedResults.Created($"/api/v1/projects/{project.Slug}", project.ToDto());
    }

    internal static ProjectDto ToDto(this Project p) =>
        new(
            p.Id,
            p.Slug,
            p.Name,
            RepositoryUrl.Redact(p.RepositoryUrl),
            p.DefaultBranch,
            p.IsPublic,
            p.GitHubRepository,
            p.Bisect,
            p.EffectiveRoundBudget,
            p.IncludeProfileMismatch,
            new PullRequestSettingsDto(PullRequestSettings.Name(p.PullRequestPolicy), p.ApprovalLabel)
        );

    [GeneratedRegex("^[a-z0-9][a-z0-9._-]{0,99}$")]
    private static partial Regex SlugPattern();
}
