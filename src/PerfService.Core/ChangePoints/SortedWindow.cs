namespace PerfService.Core.ChangePoints;

/// <summary>
/// A window of values kept sorted while it slides: add and remove are a binary search and a block move, O(W),
/// instead of re-sorting the window at every position of the scan.
/// </summary>
internal sealed class SortedWindow(int capacity)
{
    private readonly double[] _items = new double[capacity];

    public int Count { get; private set; }

    public void Clear() => Count = 0;

    public void Add(double v) => Insert(_items, Count++, v);

    public void Remove(double v)
    {
        RemoveAt(_items, Count, IndexOf(_items.AsSpan(0, Count), v));
        Count--;
    }

    /// <summary>Mean after dropping <paramref name="trim"/> of the values at each end.</summary>
    public double TrimmedMean(double trim)
    {
        var g = (int)(trim * Count);
        double sum = 0;
        for (var i = g; i < Count - g; i++)
            sum += _items[i];
        return sum / (Count - 2 * g);
    }

    /// <summary>Puts <paramref name="v"/> into <paramref name="sorted"/>[..count] where it keeps it in order; returns
    /// where it went.</summary>
    public static int Insert(double[] sorted, int count, double v)
    {
        var at = LowerBound(sorted.AsSpan(0, count), v);
        Array.Copy(sorted, at, sorted, at + 1, count - at);
        sorted[at] = v;
        return at;
    }

    /// <summary>Where <paramref name="v"/> is in <paramref name="sorted"/>; it must be there.</summary>
    public static int IndexOf(ReadOnlySpan<double> sorted, double v)
    {
        var at = LowerBound(sorted, v);
        if (at == sorted.Length || sorted[at] != v)
            throw new InvalidOperationException("a value the window holds was not found: it lost track of its values");
        return at;
    }

    /// <summary>Takes the value at <paramref name="at"/> out of <paramref name="sorted"/>[..count].</summary>
    public static void RemoveAt(double[] sorted, int count, int at) =>
        Array.Copy(sorted, at + 1, sorted, at, count - at - 1);

    // The first index whose value is not below v. Array.BinarySearch compares through IComparer<double>, which is not
    // inlined: the searches of the sliding windows were an eighth of the detector's CPU.
    private static int LowerBound(ReadOnlySpan<double> sorted, double v)
    {
        int lo = 0,
            hi = sorted.Length;
        while (lo < hi)
        {
            var mid = (int)((uint)(lo + hi) >> 1);
            if (sorted[mid] < v)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    }
}
