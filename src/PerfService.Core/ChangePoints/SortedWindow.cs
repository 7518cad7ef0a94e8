using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace PerfService.Core.ChangePoints;

/// <summary>
/// A window of values kept sorted while it slides: add and remove are a binary search and a block move, O(W),
/// instead of re-sorting the window at every position of the scan.
/// </summary>
internal sealed class SortedWindow(int capacity)
{
    private readonly double[] _items = new double[capacity];

    public int Count { get; private set; }

    /// <summary>An empty window of at least <paramref name="capacity"/> values: <paramref name="kept"/>, or a new one
    /// kept there when it is missing or too small.</summary>
    public static SortedWindow Kept(ref SortedWindow? kept, int capacity)
    {
        if (kept is null || kept._items.Length < capacity)
            kept = new SortedWindow(capacity);
        kept.Clear();
        return kept;
    }

    /// <summary>The values, in order.</summary>
    public ReadOnlySpan<double> Values => _items.AsSpan(0, Count);

    public void Clear() => Count = 0;

    public void Add(double v) => Insert(_items, Count++, v);

    /// <summary>Holds <paramref name="values"/> and nothing else: the values adding each would leave.</summary>
    public void Fill(ReadOnlySpan<double> values)
    {
        values.CopyTo(_items);
        Count = values.Length;
        _items.AsSpan(0, Count).Sort();
    }

    public void Remove(double v)
    {
        RemoveAt(_items, Count, IndexOf(_items.AsSpan(0, Count), v));
        Count--;
    }

    /// <summary>Takes <paramref name="leaving"/> out and puts <paramref name="entering"/> in: the same values as
    /// <see cref="Remove"/> then <see cref="Add"/>, in one move of the values between the two places instead of two
    /// moves of everything after them (a window sliding by one point does this at every position).</summary>
    public void Replace(double leaving, double entering)
    {
        var items = _items.AsSpan(0, Count);
        var from = IndexOf(items, leaving);
        var to = LowerBound(items, entering);
        if (to > from + 1)
        {
            items[(from + 1)..to].CopyTo(items[from..]);
            items[to - 1] = entering;
        }
        else if (to <= from)
        {
            items[to..from].CopyTo(items[(to + 1)..]);
            items[to] = entering;
        }
        else
            items[from] = entering;
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
    // inlined: the searches of the sliding windows were an eighth of the detector's CPU. The halving carries no branch
    // on the comparison (it adds half or nothing), so a mispredicted jump does not cost every step of the search on
    // noisy values, whose order is random.
    private static int LowerBound(ReadOnlySpan<double> sorted, double v)
    {
        if (sorted.IsEmpty)
            return 0;
        ref var first = ref MemoryMarshal.GetReference(sorted);
        int at = 0,
            length = sorted.Length;
        while (length > 1)
        {
            var half = length >> 1;
            at += half * Below(Unsafe.Add(ref first, at + half - 1), v);
            length -= half;
        }
        return at + Below(Unsafe.Add(ref first, at), v);
    }

    private static int Below(double x, double v) => Unsafe.BitCast<bool, byte>(x < v);
}
