using Microsoft.EntityFrameworkCore;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.Alerts;

/// <summary>
/// The one place that writes an alert's state: it opens alerts (grouping them as they open), moves them between states,
/// narrows their ranges and records every change as an <see cref="AlertEvent"/> with who, when and why. Change points,
/// targets, pull-request verdicts, bisection, triage from the API and acknowledgements from GitHub all come through
/// here.
/// </summary>
public sealed partial class AlertService(PerfDbContext db, TimeProvider time, ILogger<AlertService> logger)
{
    public const string System = "perfservice";

    /// <summary>Opens an alert unless an open one exists for the same series and group (re-analysis is idempotent).
    /// Returns the open alert either way.</summary>
    public async Task<Alert> OpenAsync(Alert alert, string reason, CancellationToken ct) =>
        (await OpenManyAsync([new(alert, reason)], ct))[0];

    /// <summary>
    /// Opens a batch of alerts (e.g. every change point one analysis found) with a few statements: one lookup of the
    /// open twins, one insert, one grouping pass per project. Returns, in input order, the alert now open for each
    /// candidate: the new one, or the twin that was already open.
    /// </summary>
    public async Task<IReadOnlyList<Alert>> OpenManyAsync(IReadOnlyList<AlertOpening> openings, CancellationToken ct)
    {
        if (openings.Count == 0)
            return [];
        var candidates = openings.Select(o => o.Alert).ToList();
        // Grouping takes a lock held to the end of the transaction: the caller's when there is one, else our own.
        await using var tx = db.Database.CurrentTransaction is null
            ? await db.Database.BeginTransactionAsync(ct)
            : null;
        var projectIds = candidates.Select(a => a.ProjectId).Distinct().ToArray();
        var keys = candidates.Select(a => a.GroupKey).Distinct().ToArray();
        var open = await db
            .Alerts.Where(a => projectIds.Contains(a.ProjectId) && keys.Contains(a.GroupKey))
            .WhereOpen()
            .ToListAsync(ct);

        var now = time.GetUtcNow();
        var result = new List<Alert>(candidates.Count);
        var opened = new List<Alert>();
        var reasons = new List<string>();
        foreach (var (alert, reason) in openings)
        {
            var twin = open.FirstOrDefault(a =>
                a.ProjectId == alert.ProjectId
                && a.GroupKey == alert.GroupKey
                && a.Kind == alert.Kind
                && a.BenchmarkId == alert.BenchmarkId
                && a.MeasureId == alert.MeasureId
                && a.ProfileId == alert.ProfileId
            );
            if (twin is not null)
            {
                result.Add(twin);
                continue;
            }
            alert.State = AlertState.Active;
            alert.CreatedAt = alert.UpdatedAt = now;
            db.Alerts.Add(alert);
            open.Add(alert);
            opened.Add(alert);
            reasons.Add(reason);
            result.Add(alert);
        }
        if (opened.Count == 0)
            return result;
        await db.SaveChangesAsync(ct);
        for (var i = 0; i < opened.Count; i++)
            db.AlertEvents.Add(
                new AlertEvent
                {
                    AlertId = opened[i].Id,
                    FromState = null,
                    ToState = AlertState.Active,
                    Actor = System,
                    Reason = reasons[i],
                    At = now,
                }
            );
        await GroupAsync(opened, now, ct);
        await db.SaveChangesAsync(ct);
        if (tx is not null)
            await tx.CommitAsync(ct);
        return result;
    }

    /// <summary>Moves an alert to <paramref name="state"/> (nothing when it is there already), recording the
    /// event.</summary>
    public async Task ChangeStateAsync(
        Alert alert,
        AlertState state,
        string actor,
        string? reason,
        CancellationToken ct
    )
    {
        if (alert.State == state)
            return;
        Transition(alert, state, actor, reason, time.GetUtcNow());
        await db.SaveChangesAsync(ct);
        await RefreshGroupStatesAsync([alert], ct);
    }

    /// <summary>
    /// Triage by a person (the API, a GitHub command or button): every alert gets an event even when its state stays,
    /// since the reason or the issue link is what changed; <paramref name="issue"/>, when given, replaces the link.
    /// </summary>
    public async Task TriageAsync(
        IReadOnlyList<Alert> alerts,
        AlertState state,
        string actor,
        string? reason,
        IssueLink? issue,
        CancellationToken ct
    )
    {
        if (alerts.Count == 0)
            return;
        var now = time.GetUtcNow();
        foreach (var alert in alerts)
        {
            Transition(alert, state, actor, reason, now);
            if (issue is not null)
                alert.IssueUrl = issue.Url;
        }
        await db.SaveChangesAsync(ct);
        await RefreshGroupStatesAsync(alerts, ct);
    }

    /// <summary>Records something that happened to an alert without changing its state (e.g. a bisection step), saving
    /// whatever else the caller changed with it.</summary>
    public async Task NoteAsync(Alert alert, string reason, CancellationToken ct)
    {
        var now = time.GetUtcNow();
        db.AlertEvents.Add(
            new AlertEvent
            {
                AlertId = alert.Id,
                FromState = alert.State,
                ToState = alert.State,
                Actor = System,
                Reason = reason,
                At = now,
            }
        );
        await db.SaveChangesAsync(ct);
    }

    /// <summary>
    /// Records that an alert's range was narrowed in place (the caller has set its new range and description); the
    /// alert keeps its identity, triage and group, whose range follows.
    /// </summary>
    public async Task NarrowedAsync(Alert alert, string oldFrom, string oldTo, string how, CancellationToken ct)
    {
        alert.UpdatedAt = time.GetUtcNow();
        db.AlertEvents.Add(
            new AlertEvent
            {
                AlertId = alert.Id,
                FromState = alert.State,
                ToState = alert.State,
                Actor = System,
                At = alert.UpdatedAt,
                Reason =
                    $"range narrowed {how}: from {Short(oldFrom)}..{Short(oldTo)} to {Short(alert.FromCommit)}..{Short(alert.ToCommit)}",
            }
        );
        await db.SaveChangesAsync(ct);
        if (alert.AlertGroupId is { } groupId)
            await RefreshRangeAsync(groupId, ct);
        logger.LogInformation("Alert {AlertId} narrowed to {From}..{To}", alert.Id, alert.FromCommit, alert.ToCommit);
    }

    private void Transition(Alert alert, AlertState state, string actor, string? reason, DateTimeOffset now)
    {
        db.AlertEvents.Add(
            new AlertEvent
            {
                AlertId = alert.Id,
                FromState = alert.State,
                ToState = state,
                Actor = actor,
                Reason = reason,
                At = now,
            }
        );
        alert.State = state;
        alert.UpdatedAt = now;
    }

    internal static string Short(string? sha) =>
        sha is null ? "–"
        : sha.Length > 10 ? sha[..10]
        : sha;
}

/// <summary>A change of an alert's issue link: <see cref="Url"/> null removes it.</summary>
public sealed record IssueLink(string? Url);

/// <summary>An alert to open and why (the reason of its first event).</summary>
public sealed record AlertOpening(Alert Alert, string Reason);
