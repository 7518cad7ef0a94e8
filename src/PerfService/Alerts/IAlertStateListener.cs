namespace PerfService.Alerts;

/// <summary>
/// Told after an alert's state changed through triage (the change is already committed). Register any number with DI
/// (e.g. to re-publish the pull-request comment); a listener that throws is logged and does not undo the change.
/// </summary>
public interface IAlertStateListener
{
    Task OnAlertChangedAsync(long alertId, CancellationToken ct);

    /// <summary>Told once for a triage that changed several alerts (a whole group); by default, once per alert.</summary>
    async Task OnAlertsChangedAsync(IReadOnlyList<long> alertIds, CancellationToken ct)
    {
        foreach (var id in alertIds) await OnAlertChangedAsync(id, ct);
    }
}
