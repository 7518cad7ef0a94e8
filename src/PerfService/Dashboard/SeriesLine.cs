namespace PerfService.Dashboard;

internal readonly record struct SeriesPoint(
    long RunId,
    string Commit,
    DateTimeOffset At,
    double Value,
    double? Lower,
    double? Upper,
    int Samples
) : IComparable<SeriesPoint>
{
    /// <summary>The series' order, and the paging cursor's: commit time, then run id.</summary>
    public int CompareTo(SeriesPoint other)
    {
        var byTime = At.CompareTo(other.At);
        return byTime != 0 ? byTime : RunId.CompareTo(other.RunId);
    }
}

/// <summary>One profile's points in series order: structs in one list, not an object per point (10,000 is
/// common).</summary>
internal sealed class SeriesLine(string profile)
{
    public string Profile { get; } = profile;
    public List<SeriesPoint> Points { get; } = [];

    /// <summary>
    /// Cuts every line at the earliest point where some line went past <paramref name="take"/> points, so that paging
    /// from
    /// there visits each point exactly once; that point is the next cursor, null when no line was cut.
    /// </summary>
    public static SeriesPoint? Cut(IReadOnlyList<SeriesLine> lines, int take)
    {
        SeriesPoint? cut = null;
        foreach (var line in lines)
        {
            if (line.Points.Count <= take)
                continue;
            var last = line.Points[take - 1];
            if (cut is not { } c || last.CompareTo(c) < 0)
                cut = last;
        }
        if (cut is { } at)
            foreach (var line in lines)
            {
                var keep = 0;
                while (keep < line.Points.Count && line.Points[keep].CompareTo(at) <= 0)
                    keep++;
                line.Points.RemoveRange(keep, line.Points.Count - keep);
            }
        return cut;
    }
}
