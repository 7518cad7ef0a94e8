using Microsoft.EntityFrameworkCore;
using PerfService.Data.Entities;

namespace PerfService.Alerts;

public sealed partial class AlertService
{
    /// <summary>
    /// Puts each newly opened alert into the group of its project whose range overlaps its own, starting a group when
    /// none does and merging groups the alert bridges. Ranges are compared on the series clock of the default branch
    /// (a range is "after from, up to and including to"); a pull request's regressions share one group per head.
    /// </summary>
    private async Task GroupAsync(List<Alert> opened, DateTimeOffset now, CancellationToken ct)
    {
        // Projects in id order: two batches spanning the same projects take their locks in the same order.
        foreach (var project in opened.GroupBy(a => a.ProjectId).OrderBy(g => g.Key))
        {
            await LockGroupsAsync(project.Key, ct);
            var times = await CommitTimesAsync(
                project.Key,
                project.SelectMany(a => new[] { a.FromCommit, a.ToCommit }),
                ct
            );
            foreach (var alert in project)
                await JoinAsync(alert, times, now, ct);
        }
    }

    /// <summary>
    /// Analyses of several profiles raise the alerts of one slowdown at once: one of them groups at a time, to the end
    /// of its transaction. A caller that takes other advisory locks of the project in the same transaction (the
    /// bisector) takes this one first, so two analyses never wait on each other in opposite order.
    /// </summary>
    public Task LockGroupsAsync(long projectId, CancellationToken ct) =>
        db.Database.ExecuteSqlAsync(
            $"SELECT pg_advisory_xact_lock(hashtextextended({$"alert-groups:{projectId}"}, 0))",
            ct
        );

    private async Task JoinAsync(
        Alert alert,
        Dictionary<string, DateTimeOffset> times,
        DateTimeOffset now,
        CancellationToken ct
    )
    {
        var scope = ScopeOf(alert);
        var (lo, hi) = RangeOf(alert.FromCommit, alert.ToCommit, times);
        var overlapping =
            scope != AlertGroup.MainScope
                ? await db
                    .AlertGroups.Where(g => g.ProjectId == alert.ProjectId && g.Scope == scope)
                    .OrderBy(g => g.Id)
                    .ToListAsync(ct)
            : lo is { } l && hi is { } h
                ? await db
                    .AlertGroups.Where(g =>
                        g.ProjectId == alert.ProjectId && g.Scope == scope && g.FromAt < h && l < g.ToAt
                    )
                    .OrderBy(g => g.Id)
                    .ToListAsync(ct)
            : [];

        var group = overlapping.FirstOrDefault();
        if (group is null)
        {
            group = new AlertGroup
            {
                ProjectId = alert.ProjectId,
                Scope = scope,
                State = AlertState.Active,
                FromCommit = alert.FromCommit,
                ToCommit = alert.ToCommit,
                FromAt = lo,
                ToAt = hi,
                CreatedAt = now,
                UpdatedAt = now,
            };
            db.AlertGroups.Add(group);
            await db.SaveChangesAsync(ct);
        }
        else
        {
            Extend(group, alert.FromCommit, lo, alert.ToCommit, hi);
            foreach (var other in overlapping.Skip(1))
                await MergeAsync(group, other, ct);
        }
        alert.AlertGroupId = group.Id;
        // A new member is active, so its group is again.
        group.State = AlertState.Active;
        group.UpdatedAt = now;
        // Saved at once: the next alert of the batch finds groups by their stored range.
        await db.SaveChangesAsync(ct);
    }

    /// <summary>An alert that bridges two groups makes them one: the older keeps its id, the other's members
    /// move.</summary>
    private async Task MergeAsync(AlertGroup into, AlertGroup other, CancellationToken ct)
    {
        Extend(into, other.FromCommit, other.FromAt, other.ToCommit, other.ToAt);
        into.IssueUrl ??= other.IssueUrl;
        var now = time.GetUtcNow();
        foreach (var member in await db.Alerts.Where(a => a.AlertGroupId == other.Id).ToListAsync(ct))
        {
            member.AlertGroupId = into.Id;
            db.AlertEvents.Add(
                new AlertEvent
                {
                    AlertId = member.Id,
                    FromState = member.State,
                    ToState = member.State,
                    Actor = System,
                    At = now,
                    Reason = $"alert group {other.Id} merged into {into.Id}: a new alert's range overlaps both",
                }
            );
        }
        await db.SaveChangesAsync(ct);
        db.AlertGroups.Remove(other);
        await db.SaveChangesAsync(ct);
        logger.LogInformation("Alert group {Other} merged into {Group}", other.Id, into.Id);
    }

    private static void Extend(AlertGroup group, string? from, DateTimeOffset? fromAt, string? to, DateTimeOffset? toAt)
    {
        if (fromAt is not null && (group.FromAt is null || fromAt < group.FromAt))
            (group.FromAt, group.FromCommit) = (fromAt, from);
        if (toAt is not null && (group.ToAt is null || toAt > group.ToAt))
            (group.ToAt, group.ToCommit) = (toAt, to);
    }

    /// <summary>After a member's range narrowed, the group's range is the union of its members' again.</summary>
    private async Task RefreshRangeAsync(long groupId, CancellationToken ct)
    {
        var group = await db.AlertGroups.FirstOrDefaultAsync(g => g.Id == groupId, ct);
        if (group is null || group.Scope != AlertGroup.MainScope)
            return;
        var members = await db
            .Alerts.Where(a => a.AlertGroupId == groupId)
            .Select(a => new { a.FromCommit, a.ToCommit })
            .ToListAsync(ct);
        var times = await CommitTimesAsync(
            group.ProjectId,
            members.SelectMany(m => new[] { m.FromCommit, m.ToCommit }),
            ct
        );
        (group.FromAt, group.FromCommit, group.ToAt, group.ToCommit) = (null, null, null, null);
        foreach (var m in members)
        {
            var (lo, hi) = RangeOf(m.FromCommit, m.ToCommit, times);
            Extend(group, m.FromCommit, lo, m.ToCommit, hi);
        }
        await db.SaveChangesAsync(ct);
    }

    /// <summary>A group's state follows its members: active while any is, else acknowledged, else fixed, else
    /// invalid.</summary>
    private async Task RefreshGroupStatesAsync(IEnumerable<Alert> changed, CancellationToken ct)
    {
        var ids = changed.Select(a => a.AlertGroupId).OfType<long>().Distinct().ToArray();
        if (ids.Length == 0)
            return;
        var states = await db
            .Alerts.Where(a => a.AlertGroupId != null && ids.Contains(a.AlertGroupId.Value))
            .Select(a => new { Group = a.AlertGroupId!.Value, a.State })
            .Distinct()
            .ToListAsync(ct);
        var now = time.GetUtcNow();
        foreach (var group in await db.AlertGroups.Where(g => ids.Contains(g.Id)).ToListAsync(ct))
        {
            group.State = Derive(states.Where(s => s.Group == group.Id).Select(s => s.State).ToList());
            group.UpdatedAt = now;
        }
        await db.SaveChangesAsync(ct);
    }

    internal static AlertState Derive(IReadOnlyCollection<AlertState> members) =>
        members.Contains(AlertState.Active) ? AlertState.Active
        : members.Contains(AlertState.Acknowledged) ? AlertState.Acknowledged
        : members.Contains(AlertState.Fixed) ? AlertState.Fixed
        : members.Count > 0 ? AlertState.Invalid
        : AlertState.Active;

    // Pull-request regressions are grouped by pull request and head: a head is not on the default branch, so its range
    // cannot be placed among main's; it groups with the other regressions of the same head.
    private static string ScopeOf(Alert alert) =>
        alert.Kind == AlertKind.Regression && AlertGroupKey.IsPullRequest(alert.GroupKey)
            ? alert.GroupKey
            : AlertGroup.MainScope;

    /// <summary>
    /// The range as (exclusive, inclusive] bounds on the series clock. An alert at one commit (a failed target) covers
    /// just that commit, i.e. starts a moment before it. Null bounds when a commit is unknown: such an alert groups
    /// alone.
    /// </summary>
    private static (DateTimeOffset? Lo, DateTimeOffset? Hi) RangeOf(
        string? from,
        string? to,
        Dictionary<string, DateTimeOffset> times
    )
    {
        DateTimeOffset? hi = to is not null && times.TryGetValue(to, out var t) ? t : null;
        if (hi is null)
            return (null, null);
        if (from is null)
            return (hi.Value.AddTicks(-10), hi);
        return times.TryGetValue(from, out var f) ? (f, hi) : (null, null);
    }

    // The series orders points by coalesce(committed_at, first_seen_at): ranges are placed on the same clock.
    private async Task<Dictionary<string, DateTimeOffset>> CommitTimesAsync(
        long projectId,
        IEnumerable<string?> shas,
        CancellationToken ct
    )
    {
        var wanted = shas.OfType<string>().Distinct().ToArray();
        var rows = await db
            .Commits.AsNoTracking()
            .Where(c => c.ProjectId == projectId && wanted.Contains(c.Sha))
            .Select(c => new { c.Sha, At = c.CommittedAt ?? c.FirstSeenAt })
            .ToListAsync(ct);
        return rows.DistinctBy(r => r.Sha).ToDictionary(r => r.Sha, r => r.At);
    }
}
