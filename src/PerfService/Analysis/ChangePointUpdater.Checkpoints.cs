using Microsoft.EntityFrameworkCore;
using PerfService.Data.Entities;

namespace PerfService.Analysis;

public sealed partial class ChangePointUpdater
{
    /// <summary>The stored checkpoints of series found out of order (rows this update holds locked), read only for
    /// them: most updates arrive in order and never need them.</summary>
    private async Task<Dictionary<(long, long), IReadOnlyList<DetectorCheckpoint>>> ReadCheckpointsAsync(
        List<SeriesState> late,
        CancellationToken ct
    )
    {
        if (late.Count == 0)
            return [];
        var ids = late.Select(r => r.Id).ToArray();
        var stored = await db
            .Database.SqlQuery<StoredCheckpoints>(
                $"""
                SELECT benchmark_id, measure_id, previous_checkpoint, checkpoint FROM series_states
                WHERE id = ANY({ids}) AND checkpoint IS NOT NULL
                """
            )
            .ToListAsync(ct);
        return stored.ToDictionary(
            s => (s.BenchmarkId, s.MeasureId),
            s =>
                (IReadOnlyList<DetectorCheckpoint>)
                    new[] { s.PreviousCheckpoint, s.Checkpoint }
                        .Select(DetectorCheckpoint.Decode)
                        .OfType<DetectorCheckpoint>()
                        .ToList()
        );
    }

    private sealed record StoredCheckpoints(
        long BenchmarkId,
        long MeasureId,
        byte[]? PreviousCheckpoint,
        byte[] Checkpoint
    );

    /// <summary>
    /// The points of each series from its oldest checkpoint on (and a margin before it), in one query: a replay from any
    /// of its checkpoints needs no more. A series whose checkpoint the read does not hold is left out (read whole).
    /// </summary>
    private async Task<List<((long, long) Key, SeriesWindow Tail)>> ReadFromCheckpointsAsync(
        Dictionary<(long, long), IReadOnlyList<DetectorCheckpoint>> checkpoints,
        Dictionary<(long, long), SeriesState> rows,
        long[] including,
        Project project,
        CancellationToken ct
    )
    {
        var oldest = checkpoints
            .Select(c => (c.Key, From: c.Value.FirstOrDefault(x => x.IsCurrent)))
            .Where(c => c.From is not null)
            .ToList();
        // The tail read starts after a state's last point fed: here, the checkpoint's.
        var from = oldest
            .Select(c => new SeriesState
            {
                BenchmarkId = c.Key.Item1,
                MeasureId = c.Key.Item2,
                ProfileId = rows[c.Key].ProfileId,
                BranchId = rows[c.Key].BranchId,
                State = [],
                LastSeriesAt = c.From!.SeriesAt,
                LastResultId = c.From.ResultId,
            })
            .ToList();
        var tails = await reader.ReadTailsAsync(from, TailMargin, including, ct, project.IncludeProfileMismatch);
        return oldest
            .Select(c => (c.Key, Tail: SeriesWindow.Tail(tails[c.Key], c.From!.Count, c.From.ResultId)))
            .Where(t => t.Tail is not null)
            .Select(t => (t.Key, t.Tail!))
            .ToList();
    }
}
