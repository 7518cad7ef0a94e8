using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using PerfService.Bisection;
using PerfService.Core.ChangePoints;
using PerfService.Data.Entities;
using static PerfService.Core.Contracts.CommitId;

namespace PerfService.Analysis;

public sealed partial class ChangePointUpdater
{
    /// <summary>
    /// After a replay, an open alert whose range holds a change point the replay found (same direction) is narrowed to
    /// it in place: runs of commits inside the range (bisection's, or late ones) told where the change lies.
    /// Withdrawing
    /// it and opening another would look like noise to users and lose its triage.
    /// </summary>
    private async Task NarrowAsync(
        SeriesId id,
        SeriesWindow points,
        List<OnlineAlert> current,
        OpenAlerts openAlerts,
        CancellationToken ct
    )
    {
        var open = await openAlerts.OfAsync(id, ct);
        foreach (var c in current)
        {
            var (from, to) = (points[c.Index - 1].Commit, points[c.Index].Commit);
            if (open.Any(o => o.FromCommit == from && o.ToCommit == to))
                continue;
            var wider = open.FirstOrDefault(o => DirectionOf(o) == c.Direction.ToString() && Holds(points, o, c.Index));
            if (wider is null)
                continue;

            var (oldFrom, oldTo) = (wider.FromCommit!, wider.ToCommit!);
            Describe(wider, id, points, c);
            var how = wider.Details.Bisect is null ? "as runs of commits inside it arrived" : "by bisection";
            await alerts.NarrowedAsync(wider, oldFrom, oldTo, how, ct);
        }
    }

    /// <summary>Asks the bisector about every open alert of the series; true when a job was queued.</summary>
    private async Task<bool> BisectAsync(
        SeriesId id,
        Project project,
        SeriesWindow points,
        OpenAlerts open,
        CancellationToken ct
    )
    {
        var queued = false;
        foreach (var alert in await open.OfAsync(id, ct))
        {
            var (fromIndex, toIndex) = (points.FindLast(alert.FromCommit), points.FindFirst(alert.ToCommit));
            if (fromIndex < 0 || toIndex <= fromIndex)
                continue;
            queued |= await bisector.ConsiderAsync(
                project,
                id.ProfileId,
                alert,
                points[fromIndex].SeriesAt,
                points[toIndex].SeriesAt,
                ct
            );
        }
        return queued;
    }

    // The alert's range (after its "from" point, up to its "to" point) holds the change at index.
    private static bool Holds(SeriesWindow points, Alert alert, int index) =>
        points.FindLast(alert.FromCommit) is var from and >= 0
        && from <= index - 1
        && points.FindFirst(alert.ToCommit) >= index;

    private static string? DirectionOf(Alert alert) => alert.Details.ChangePoint?.Direction;
}
