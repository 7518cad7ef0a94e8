using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Auth;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.Dashboard;

/// <summary>Changes an alert's state and records who did it and why (an AlertEvent), in one transaction, then tells the listeners.</summary>
internal sealed class AlertTriage(PerfDbContext db, IServiceProvider services, ILogger<AlertTriage> logger)
{
    private const int MaxReason = 2000;
    private const int MaxUrl = 2000;

    public async Task<Results<Ok<AlertDetailDto>, ProblemHttpResult, ValidationProblem>> ChangeAsync(
        long id, AlertStateRequest request, ClaimsPrincipal user, CancellationToken ct)
    {
        var errors = Validate(request, out var state);
        if (errors.Count > 0) return TypedResults.ValidationProblem(errors);

        var alert = await db.Alerts.FirstOrDefaultAsync(a => a.Id == id, ct);
        // Who may triage this alert (its project, the token's binding) was decided by ProjectAccess before this ran.
        if (alert is null)
            return Problems.NotFound($"alert {id} does not exist or is not visible to this token");

        var now = DateTimeOffset.UtcNow;
        db.AlertEvents.Add(new AlertEvent
        {
            AlertId = id,
            FromState = alert.State,
            ToState = state,
            Actor = user.Actor(),
            Reason = Blank(request.Reason),
            At = now,
        });
        alert.State = state;
        alert.UpdatedAt = now;
        if (request.IssueUrl is not null) alert.IssueUrl = Blank(request.IssueUrl);
        await db.SaveChangesAsync(ct);

        await NotifyAsync(id, ct);
        return TypedResults.Ok((await AlertsEndpoints.DetailAsync(db, db.Alerts.Where(a => a.Id == id), ct))!);
    }

    /// <summary>
    /// Listeners are resolved only now, after the commit: a request that fails validation builds none, and a listener
    /// that cannot even be constructed is logged like one that throws, instead of turning a committed change into a 500.
    /// </summary>
    private async Task NotifyAsync(long id, CancellationToken ct)
    {
        IEnumerable<IAlertStateListener> listeners;
        try
        {
            listeners = services.GetServices<IAlertStateListener>().ToList();
        }
        catch (Exception e)
        {
            logger.LogWarning(e, "Alert state listeners could not be created for alert {AlertId}", id);
            return;
        }
        foreach (var listener in listeners)
        {
            try
            {
                await listener.OnAlertChangedAsync(id, ct);
            }
            catch (Exception e) when (e is not OperationCanceledException)
            {
                logger.LogWarning(e, "Alert state listener {Listener} failed for alert {AlertId}", listener.GetType().Name, id);
            }
        }
    }

    private static Dictionary<string, string[]> Validate(AlertStateRequest request, out AlertState state)
    {
        var errors = new Dictionary<string, string[]>();
        if (!Enum.TryParse(request.State, ignoreCase: true, out state) || !Enum.IsDefined(state) || int.TryParse(request.State, out _))
            errors["state"] = ["one of active, acknowledged, invalid, fixed"];
        if (request.Reason is { Length: > MaxReason }) errors["reason"] = [$"at most {MaxReason} characters"];
        if (!string.IsNullOrWhiteSpace(request.IssueUrl)
            && (request.IssueUrl.Length > MaxUrl || !Uri.TryCreate(request.IssueUrl, UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https")))
            errors["issueUrl"] = ["an absolute http(s) URL"];
        return errors;
    }

    private static string? Blank(string? text) => string.IsNullOrWhiteSpace(text) ? null : text.Trim();
}
