namespace PerfService.Data.Entities;

/// <summary>
/// Alerts of one project whose commit ranges overlap (Perfherder's "alert summary"): one planted slowdown raises an
/// alert per benchmark and profile, and people triage them as one. Main-branch alerts group by their range on the
/// default branch's clock; a pull request's regressions group by the head they were measured at (<see cref="Scope"/>).
/// </summary>
public class AlertGroup
{
    public long Id { get; set; }
    public long ProjectId { get; set; }

    /// <summary>Where the range lies: <see cref="MainScope"/>, or the pull-request alerts' group key
    /// ("pr:{number}:{head}").</summary>
    public required string Scope { get; set; }

    /// <summary>Derived from the members: active while any is, else acknowledged while any is, else fixed while any is,
    /// else invalid.</summary>
    public AlertState State { get; set; }

    /// <summary>The union of the members' ranges: after <see cref="FromCommit"/>, up to and including <see
    /// cref="ToCommit"/>.</summary>
    public string? FromCommit { get; set; }
    public string? ToCommit { get; set; }

    /// <summary>The same bounds on the series clock (coalesce(committed_at, first_seen_at)); null when a commit is
    /// unknown.</summary>
    public DateTimeOffset? FromAt { get; set; }
    public DateTimeOffset? ToAt { get; set; }
    public string? IssueUrl { get; set; }
    public DateTimeOffset CreatedAt { get; set; }
    public DateTimeOffset UpdatedAt { get; set; }

    public const string MainScope = "main";

    // Navigations, for reads that project names (a run's commit SHA, profile name…) without correlated subqueries.
    public Project? Project { get; set; }
}
