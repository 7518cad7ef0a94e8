using System.Globalization;
using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Auth;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Hosting.Http;

namespace PerfService.Alerts;

/// <summary>
/// Triage from the API: validates the request, has <see cref="AlertService"/> change one alert or every member of a
/// group (recording who did it and why), then runs the follow-ups (<see cref="ITriageFollowUp"/>).
/// </summary>
internal sealed class AlertTriage(
    PerfDbContext db,
    AlertService alerts,
    IServiceProvider services,
    ILogger<AlertTriage> logger
)
{
    private const int MaxReason = 2000;
    private const int MaxUrl = 2000;

    public async Task<Results<Ok<AlertDetailDto>, ProblemHttpResult, ValidationProblem>> ChangeAsync(
        long id,
        AlertStateRequest request,
        ClaimsPrincipal user,
        CancellationToken ct
    )
    {
        var alert = await db.Alerts.FirstOrDefaultAsync(a => a.Id == id, ct);
        // Who may triage this alert (its project, the token's binding) was decided by ProjectAccess before this ran.
        if (alert is null)
            return Problems.NotFound($"alert {id} does not exist or is not visible to this token");
        var errors = await ValidateAsync(request, alert.ProjectId, ct);
        if (errors.Problems.Count > 0)
            return TypedResults.ValidationProblem(errors.Problems);

        await alerts.TriageAsync([alert], errors.State, user.Actor(), Blank(request.Reason), errors.Issue, ct);
        await NotifyAsync([id], ct);
        return TypedResults.Ok((await AlertsEndpoints.DetailAsync(db, db.Alerts.Where(a => a.Id == id), ct))!);
    }

    /// <summary>Triage of a whole group: every member gets the state (and the issue link), each with its own
    /// event.</summary>
    public async Task<Results<Ok<AlertGroupDetailDto>, ProblemHttpResult, ValidationProblem>> ChangeGroupAsync(
        long groupId,
        AlertStateRequest request,
        ClaimsPrincipal user,
        CancellationToken ct
    )
    {
        var group = await db.AlertGroups.FirstOrDefaultAsync(g => g.Id == groupId, ct);
        if (group is null)
            return Problems.NotFound($"alert group {groupId} does not exist or is not visible to this token");
        var errors = await ValidateAsync(request, group.ProjectId, ct);
        if (errors.Problems.Count > 0)
            return TypedResults.ValidationProblem(errors.Problems);

        var members = await db.Alerts.Where(a => a.AlertGroupId == groupId).OrderBy(a => a.Id).ToListAsync(ct);
        var reason = Blank(request.Reason);
        await alerts.TriageAsync(
            members,
            errors.State,
            user.Actor(),
            reason is null ? $"triaged with alert group {groupId}" : $"{reason} (alert group {groupId})",
            errors.Issue,
            ct
        );
        if (errors.Issue is not null)
        {
            group.IssueUrl = errors.Issue.Url;
            await db.SaveChangesAsync(ct);
        }
        await NotifyAsync(members.Select(m => m.Id).ToList(), ct);
        return TypedResults.Ok((await AlertGroupsEndpoints.DetailAsync(db, groupId, ct))!);
    }

    /// <summary>
    /// The follow-ups are resolved only now, after the commit: a request that fails validation builds none, and one
    /// that
    /// cannot even be constructed is logged like one that throws, instead of turning a committed change into a 500.
    /// </summary>
    private async Task NotifyAsync(IReadOnlyList<long> ids, CancellationToken ct)
    {
        IEnumerable<ITriageFollowUp> followUps;
        try
        {
            followUps = services.GetServices<ITriageFollowUp>().ToList();
        }
        catch (Exception e)
        {
            logger.LogWarning(e, "Triage follow-ups could not be created for alerts {AlertIds}", ids);
            return;
        }
        foreach (var followUp in followUps)
        {
            try
            {
                await followUp.AfterTriageAsync(ids, ct);
            }
            catch (Exception e) when (e is not OperationCanceledException)
            {
                logger.LogWarning(
                    e,
                    "Triage follow-up {FollowUp} failed for alerts {AlertIds}",
                    followUp.GetType().Name,
                    ids
                );
            }
        }
    }

    private sealed record Checked(Dictionary<string, string[]> Problems, AlertState State, IssueLink? Issue);

    private async Task<Checked> ValidateAsync(AlertStateRequest request, long projectId, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        if (
            !Enum.TryParse(request.State, ignoreCase: true, out AlertState state)
            || !Enum.IsDefined(state)
            || int.TryParse(request.State, out _)
        )
            errors["state"] = ["one of active, acknowledged, invalid, fixed"];
        if (request.Reason is { Length: > MaxReason })
            errors["reason"] = [$"at most {MaxReason} characters"];
        // Absent: the link stays; blank: it is removed.
        if (request.IssueUrl is null)
            return new Checked(errors, state, null);
        var url = Blank(request.IssueUrl);
        if (url is not null && IssueNumber(url) is { } number)
        {
            // An issue number is one of the project's GitHub repository.
            var repository = await db
                .Projects.Where(p => p.Id == projectId)
                .Select(p => p.GitHubRepository)
                .FirstOrDefaultAsync(ct);
            if (repository is null)
                errors["issueUrl"] =
                [
                    "an issue number needs the project's GitHub repository; give an absolute http(s) URL",
                ];
            url = $"https://github.com/{repository}/issues/{number.ToString(CultureInfo.InvariantCulture)}";
        }
        else if (
            url is not null
            && (
                url.Length > MaxUrl
                || !Uri.TryCreate(url, UriKind.Absolute, out var uri)
                || uri.Scheme is not ("http" or "https")
            )
        )
            errors["issueUrl"] = ["an absolute http(s) URL, or an issue number of the project's GitHub repository"];
        return new Checked(errors, state, new IssueLink(url));
    }

    private static int? IssueNumber(string text) =>
        int.TryParse(text.TrimStart('#'), NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n > 0
            ? n
            : null;

    private static string? Blank(string? text) => string.IsNullOrWhiteSpace(text) ? null : text.Trim();
}
