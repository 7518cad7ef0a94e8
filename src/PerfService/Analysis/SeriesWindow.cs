namespace PerfService.Analysis;

/// <summary>
/// The part of a series an update needs: points from global index <see cref="Offset"/> to the end. An in-order update
/// reads only the new points and a margin before them (every alert the online detector raises or withdraws lies in its
/// unsettled tail), so its cost does not grow with the history; a replay reads the whole series (offset 0).
/// </summary>
public sealed class SeriesWindow(int offset, List<SeriesPoint> points)
{
    public static SeriesWindow Whole(List<SeriesPoint> points) => new(0, points);

    /// <summary>
    /// The window of a tail read (<see cref="SeriesReader.ReadTailsAsync"/>) for a state that fed <paramref
    /// name="fed"/>
    /// points, the last of them <paramref name="lastFed"/>: that point is at index fed − 1. Null when the tail does not
    /// hold it, so that its place is unknown (the series must be read whole).
    /// </summary>
    public static SeriesWindow? Tail(List<SeriesPoint> points, int fed, long lastFed)
    {
        var at = points.FindLastIndex(p => p.ResultId == lastFed);
        return at < 0 || at > fed - 1 ? null : new SeriesWindow(fed - 1 - at, points);
    }

    public int Offset { get; } = offset;
    public bool IsWhole => Offset == 0;

    /// <summary>Points in the whole series.</summary>
    public int Count => Offset + points.Count;
    public SeriesPoint Last => points[^1];

    public bool Holds(int index) => index >= Offset && index < Count;

    public SeriesPoint this[int index] =>
        Holds(index)
            ? points[index - Offset]
            : throw new ArgumentOutOfRangeException(
                nameof(index),
                $"point {index} is outside the read window [{Offset}, {Count})"
            );

    /// <summary>Whether the window holds every one of <paramref name="resultIds"/> at global index
    /// <paramref name="from"/> or later. One pass from the end, where the newest points lie: a batch that caught up
    /// brings a series dozens of points, and a search per point through a window of hundreds was a twentieth of the
    /// analysis' CPU.
    /// A sorted array, not a hash set: most updates bring a series one or two points, and a set per series per update
    /// was a fiftieth of what an analysis allocated.</summary>
    public bool HoldsFrom(IEnumerable<long> resultIds, int from)
    {
        long[] ids = [.. resultIds];
        ids.AsSpan().Sort();
        var wanted = ids.Length == 0 ? 0 : 1;
        for (var i = 1; i < ids.Length; i++)
            if (ids[i] != ids[wanted - 1])
                ids[wanted++] = ids[i];
        var distinct = ids.AsSpan(0, wanted);
        var found = 0;
        for (var i = points.Count - 1; i >= Math.Max(0, from - Offset) && found < wanted; i--)
            if (distinct.BinarySearch(points[i].ResultId) >= 0)
                found++;
        return found == wanted;
    }

    /// <summary>Global index of the first / last point at a commit, or -1 (whole windows only: a partial one may not
    /// hold it).</summary>
    public int FindFirst(string? commit) => Find(points.FindIndex(p => p.Commit == commit));

    public int FindLast(string? commit) => Find(points.FindLastIndex(p => p.Commit == commit));

    private int Find(int local)
    {
        if (!IsWhole)
            throw new InvalidOperationException("searching a partial window of a series");
        return local < 0 ? -1 : local + Offset;
    }
}
