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

    /// <summary>Position of the last point fed; an older point arriving late makes the series replay from the
    /// start.</summary>
    public DateTimeOffset LastSeriesAt { get; set; }
    public long LastResultId { get; set; }
    public DateTimeOffset UpdatedAt { get; set; }
}
