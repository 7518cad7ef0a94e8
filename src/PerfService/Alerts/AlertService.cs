using Microsoft.EntityFrameworkCore;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.Alerts;

/// <summary>Opens and closes alerts, recording every change of state with who, when and why.</summary>
public sealed class AlertService(PerfDbContext db)
{
    public const string System = "perfservice";

    /// <summary>Opens an alert unless an open one exists for the same series and group (re-analysis is idempotent).
    /// Returns the open alert either way.</summary>
    public async Task<Alert> OpenAsync(Alert alert, string reason, CancellationToken ct)
    {
        var existing = await db.Alerts.FirstOrDefaultAsync(a => a.ProjectId == alert.ProjectId && a.GroupKey == alert.GroupKey
            && a.Kind == alert.Kind && a.BenchmarkId == alert.BenchmarkId && a.MeasureId == alert.MeasureId && a.ProfileId == alert.ProfileId
            && (a.State == AlertState.Active || a.State == AlertState.Acknowledged), ct);
        if (existing is not null) return existing;
        var now = DateTimeOffset.UtcNow;
        alert.State = AlertState.Active;
        alert.CreatedAt = alert.UpdatedAt = now;
        db.Alerts.Add(alert);
        await db.SaveChangesAsync(ct);
        db.AlertEvents.Add(new AlertEvent { AlertId = alert.Id, FromState = null, ToState = AlertState.Active, Actor = System, Reason = reason, At = now });
        await db.SaveChangesAsync(ct);
        return alert;
    }

    public async Task ChangeStateAsync(Alert alert, AlertState state, string actor, string? reason, CancellationToken ct)
    {
        if (alert.State == state) return;
        var now = DateTimeOffset.UtcNow;
        db.AlertEvents.Add(new AlertEvent { AlertId = alert.Id, FromState = alert.State, ToState = state, Actor = actor, Reason = reason, At = now });
        alert.State = state;
        alert.UpdatedAt = now;
        await db.SaveChangesAsync(ct);
    }
}
