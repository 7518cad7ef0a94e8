namespace PerfService.Data.Entities;

/// <summary>
/// The online change-point detector's state of one series (benchmark × measure × profile × branch), so each new run
/// costs one bounded update instead of a re-scan of the whole history.
/// </summary>
public class SeriesState
{
    public long Id { get; set; }
    public long BenchmarkId { get; set; }
    public long MeasureId { get; set; }
    public long ProfileId { get; set; }
    public long BranchId { get; set; }

    /// <summary><c>OnlineDetectorState</c> in <c>OnlineDetectorStateCodec</c>'s binary form; empty for a series not yet
    /// fed.</summary>
    public required byte[] State { get; set; }

    /// <summary>Position of the last point fed; an older point arriving late makes the series replay from a
    /// checkpoint before it, or from the start.</summary>
    public DateTimeOffset LastSeriesAt { get; set; }
    public long LastResultId { get; set; }

    /// <summary>The detector's state saved at the last multiple of <c>DetectorCheckpoint.Every</c> points, in
    /// <c>DetectorCheckpoint</c>'s stored form, and at the one before (<see cref="PreviousCheckpoint"/>): a late point
    /// replays the series from the newest one before it. Null or empty for none.</summary>
    public byte[]? Checkpoint { get; set; }

    public byte[]? PreviousCheckpoint { get; set; }

    public DateTimeOffset UpdatedAt { get; set; }
}
