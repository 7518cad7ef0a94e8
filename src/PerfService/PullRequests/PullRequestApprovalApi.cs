using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Auth;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.PullRequests;

/// <summary>The approval of a pull request's waiting head commit, given by an administrator.</summary>
public sealed record PullRequestApprovalDto(
    string Project,
    int PullRequest,
    string HeadCommit,
    int Jobs,
    string ApprovedBy
);

/// <summary>POST /api/v1/projects/{slug}/pulls/{pr}/approve: what the approval label does, for an admin token (API or
/// dashboard).</summary>
public static class PullRequestApprovalApi
{
    public static RouteHandlerBuilder MapPullRequestApprovalApi(this IEndpointRouteBuilder app) =>
        app.MapGroup("/api/v1/projects/{slug}/pulls/{pr:int}")
            .WithTags("Pull requests")
            .MapPost("/approve", ApproveAsync)
            .RequireAuthorization(Scopes.Admin)
            .WithSummary("Approve a waiting pull request's head commit")
            .WithDescription(
                "What the approval label does: the jobs of an outside contributor's head commit may run. The body names the head you reviewed "
                    + "(headCommit: its SHA, or at least 7 digits); if the author has pushed another head since, the answer is 409 and names the current head (currentHead)."
            )
            .ProducesProblem(StatusCodes.Status400BadRequest)
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesProblem(StatusCodes.Status409Conflict);

    private static async Task<Results<Ok<PullRequestApprovalDto>, ProblemHttpResult, ForbidHttpResult>> ApproveAsync(
        string slug,
        int pr,
        PullRequestApprovalRequest? request,
        PerfDbContext db,
        PullRequestApprovals approvals,
        ClaimsPrincipal user,
        CancellationToken ct
    )
    {
        var project = await db
            .Projects.AsNoTracking()
            .Where(p => p.Slug == slug)
            .Select(p => new { p.Id, p.Slug })
            .FirstOrDefaultAsync(ct);
        if (project is null)
            return NotFound($"project '{slug}' does not exist");
        // A token bound to one project acts for that project only.
        if (user.FindFirstValue("project") is { } bound && bound != project.Id.ToString())
            return TypedResults.Forbid();

        // Older heads' jobs were cancelled by the push that replaced them: what waits is the newest head's.
        var head = await db
            .Jobs.AsNoTracking()
            .Where(j => j.ProjectId == project.Id && j.PullRequest == pr && j.State == JobState.AwaitingApproval)
            .OrderByDescending(j => j.Id)
            .Select(j => j.Commit)
            .FirstOrDefaultAsync(ct);
        if (head is null)
            return NotFound($"no job of pull request #{pr} in '{slug}' awaits approval");
        // The approver vouches for the code they read: an approval that names no head, or another one, would release
        // whatever the author pushed after the page was loaded.
        if (ApprovedHead.Check(request?.HeadCommit, head) is { } refused)
            return TypedResults.Problem(
                refused.Detail,
                statusCode: refused.Status,
                title: refused.Title,
                extensions: new Dictionary<string, object?> { ["currentHead"] = head }
            );

        var by = $"token:{user.FindFirstValue(ClaimTypes.Name) ?? user.FindFirstValue(ClaimTypes.NameIdentifier)}";
        var released = await approvals.ApproveAsync(project.Id, pr, head, by, "api", ct);
        return TypedResults.Ok(new PullRequestApprovalDto(project.Slug, pr, head, released, by));
    }

    private static ProblemHttpResult NotFound(string detail) =>
        TypedResults.Problem(detail, statusCode: StatusCodes.Status404NotFound, title: "Nothing to approve");
}
