namespace PerfService.Alerts;

/// <summary>
/// What happens after people triaged alerts (the change is already committed): the pull-request feature re-publishes
/// the comment and check of the pull requests those alerts belong to (acknowledging a regression turns the check
/// green).
/// Alerts cannot call that feature itself, which opens alerts through them. One that throws is logged and does not
/// undo the change.
/// </summary>
public interface ITriageFollowUp
{
    /// <summary>Told once per triage, with every alert it changed (one, or the members of a group).</summary>
    Task AfterTriageAsync(IReadOnlyList<long> alertIds, CancellationToken ct);
}
