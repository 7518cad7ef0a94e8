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

    public void Add(double v)
    {
        var i = Array.BinarySearch(_items, 0, Count, v);
        if (i < 0)
            i = ~i;
        Array.Copy(_items, i, _items, i + 1, Count - i);
        _items[i] = v;
        Count++;
    }

    public void Remove(double v)
    {
        var i = Array.BinarySearch(_items, 0, Count, v);
        if (i < 0)
            throw new InvalidOperationException("value not in window");
        Array.Copy(_items, i + 1, _items, i, Count - i - 1);
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
}
