using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Access;
using PerfService.Data;

namespace PerfService.Projects;

/// <summary>PATCH /projects/{slug}: changes the settings a request names and leaves the rest.</summary>
public static class ProjectSettings
{
    public static async Task<Results<Ok<ProjectDto>, NotFound, ValidationProblem, ProblemHttpResult>> UpdateAsync(
        string slug,
        UpdateProjectRequest request,
        PerfDbContext db,
        ClaimsPrincipal user,
        CancellationToken ct
    )
    {
        var project = await db.Projects.FirstOrDefaultAsync(p => p.Slug == slug, ct);
        if (project is null)
            return TypedResults.NotFound();
        // The repository decides whose pull-request events and jobs the project receives, and what agents clone (with
        // whatever keys they hold): an admin bound to this project cannot point it at another project's repository or
        // at a path on the agents' machines. Only an admin of the whole service changes it.
        var repointed =
            (
                request.GitHubRepository is { } gitHub
                && !string.Equals(gitHub, project.GitHubRepository, StringComparison.OrdinalIgnoreCase)
            ) || (request.RepositoryUrl is { } url && url != project.RepositoryUrl);
        if (repointed && !user.IsServiceAdmin())
            return TypedResults.Problem(
                "changing gitHubRepository or repositoryUrl needs an admin token bound to no project; this token administers the project's other settings",
                statusCode: StatusCodes.Status403Forbidden,
                title: "Forbidden"
            );
        var errors = new Dictionary<string, string[]>();
        if (request.Name is { } name && string.IsNullOrWhiteSpace(name))
            errors["name"] = ["must not be blank"];
        if (request.DefaultBranch is { } branch && string.IsNullOrWhiteSpace(branch))
            errors["defaultBranch"] = ["must not be blank"];
        foreach (
            var (key, value) in Validate(
                request.RepositoryUrl ?? project.RepositoryUrl,
                request.Bisect ?? project.Bisect
            ) ?? []
        )
            errors[key] = value;
        if (request.RoundBudget is < 1 or > 100)
            errors["roundBudget"] = ["must be between 1 and 100 rounds a side"];
        foreach (var (key, value) in PullRequestSettings.Validate(request.PullRequests) ?? [])
            errors[key] = value;
        if (errors.Count > 0)
            return TypedResults.ValidationProblem(errors);

        project.Name = request.Name ?? project.Name;
        project.RepositoryUrl = request.RepositoryUrl ?? project.RepositoryUrl;
        project.DefaultBranch = request.DefaultBranch ?? project.DefaultBranch;
        project.IsPublic = request.IsPublic ?? project.IsPublic;
        project.GitHubRepository = request.GitHubRepository ?? project.GitHubRepository;
        project.Bisect = request.Bisect ?? project.Bisect;
        project.RoundBudget = request.RoundBudget ?? project.RoundBudget;
        project.IncludeProfileMismatch = request.IncludeProfileMismatch ?? project.IncludeProfileMismatch;
        PullRequestSettings.Apply(project, request.PullRequests);
        await db.SaveChangesAsync(ct);
        return TypedResults.Ok(project.ToDto());
    }

    /// <summary>Bisection queues agent jobs for commits nobody pushed a run of: agents must be able to fetch
    /// them.</summary>
    internal static Dictionary<string, string[]>? Validate(string? repositoryUrl, bool bisect) =>
        bisect && string.IsNullOrWhiteSpace(repositoryUrl)
            ? new()
            {
                ["bisect"] = ["needs the project's repositoryUrl, from which agents fetch the commits to bisect"],
            }
        : RepositoryUrl.HasCredentials(repositoryUrl) ? new() { ["repositoryUrl"] = [RepositoryUrl.CredentialsRule] }
        : null;
}
