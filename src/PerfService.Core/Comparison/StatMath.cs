using System.Numerics;

namespace PerfService.Core.Comparison;

/// <summary>Small numeric helpers shared by the comparison and change-point code (allocation-free).</summary>
internal static class StatMath
{
    // Complementary error function, Chebyshev fit with relative error below 1.2e-7 over the whole line.
    // Relative (not absolute) accuracy matters: p-values of 1e-12 must stay distinguishable for FDR ranking.
    public static double Erfc(double x)
    {
        var z = Math.Abs(x);
        var t = 1.0 / (1.0 + 0.5 * z);
        var r =
            t
            * Math.Exp(
                -z * z
                    - 1.26551223
                    + t
                        * (
                            1.00002368
                            + t
                                * (
                                    0.37409196
                                    + t
                                        * (
                                            0.09678418
                                            + t
                                                * (
                                                    -0.18628806
                                                    + t
                                                        * (
                                                            0.27886807
                                                            + t
                                                                * (
                                                                    -1.13520398
                                                                    + t
                                                                        * (
                                                                            1.48851587
                                                                            + t * (-0.82215223 + t * 0.17087277)
                                                                        )
                                                                )
                                                        )
                                                )
                                        )
                                )
                        )
            );
        return x >= 0 ? r : 2.0 - r;
    }

    /// <summary>P(|Z| ≥ |z|) for a standard normal Z.</summary>
    public static double TwoSidedP(double z) => Math.Min(1.0, Erfc(Math.Abs(z) / Math.Sqrt(2.0)));

    /// <summary>Standard normal quantile (Acklam's rational approximation, relative error ~1e-9).</summary>
    public static double NormalQuantile(double p)
    {
        if (p <= 0)
            return double.NegativeInfinity;
        if (p >= 1)
            return double.PositiveInfinity;
        const double pLow = 0.02425;
        if (p < pLow)
        {
            var q = Math.Sqrt(-2 * Math.Log(p));
            return Tail(q);
        }
        if (p > 1 - pLow)
        {
            var q = Math.Sqrt(-2 * Math.Log(1 - p));
            return -Tail(q);
        }
        {
            var q = p - 0.5;
            var r = q * q;
            return (
                    (
                        (
                            ((-3.969683028665376e+01 * r + 2.209460984245205e+02) * r - 2.759285104469687e+02) * r
                            + 1.383577518672690e+02
                        ) * r
                        - 3.066479806614716e+01
                    ) * r
                    + 2.506628277459239e+00
                )
                * q
                / (
                    (
                        (
                            ((-5.447609879822406e+01 * r + 1.615858368580409e+02) * r - 1.556989798598866e+02) * r
                            + 6.680131188771972e+01
                        ) * r
                        - 1.328068155288572e+01
                    ) * r
                    + 1
                );
        }

        static double Tail(double q) =>
            (
                (
                    (
                        ((-7.784894002430293e-03 * q - 3.223964580411365e-01) * q - 2.400758277161838e+00) * q
                        - 2.549732539343734e+00
                    ) * q
                    + 4.374664141464968e+00
                ) * q
                + 2.938163982698783e+00
            )
            / (
                (
                    ((7.784695709041462e-03 * q + 3.224671290700398e-01) * q + 2.445134137142996e+00) * q
                    + 3.754408661907416e+00
                ) * q
                + 1
            );
    }

    /// <summary>Median of an already sorted span.</summary>
    public static double SortedMedian(ReadOnlySpan<double> sorted)
    {
        var n = sorted.Length;
        if (n == 0)
            return double.NaN;
        return (n & 1) == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    }

    /// <summary>Sum of the <paramref name="count"/> smallest values, each truncated to a multiple of 2⁻⁴⁰ (<see
    /// cref="FixedSum"/>): the same, to the last bit, as <see cref="FixedSum"/> over the first values of the sorted
    /// span, whatever the order. May reorder the span. For values of magnitude below 2²².</summary>
    /// <remarks>When only a few values are left out (a trimmed scale drops the top tenth), a small heap of the largest
    /// ones finds the cut in one pass, and a second sums what lies below it; a quickselect took a fifth of the CPU of
    /// analysing a run (docs/measurements/2026-11-27-analysis-speed.md).</remarks>
    public static double SumSmallest(Span<double> values, int count)
    {
        if (count <= 0)
            return 0;
        var excluded = values.Length - count;
        if (excluded <= 0)
            return FixedSum(values);
        if (excluded <= MaxHeap)
            return SumBelowLargest(values, count, stackalloc double[excluded]);
        Select(values, count - 1);
        return FixedSum(values[..count]);
    }

    /// <summary>The sum of values each truncated to a multiple of 2⁻⁴⁰, added as integers: it does not depend on the
    /// order of the values (a floating-point sum does, in its last bits), so a scale kept up to date point by point
    /// and one computed afresh agree exactly. For values of magnitude below 2²² (sums of up to 2²⁰ of them).</summary>
    public static double FixedSum(ReadOnlySpan<double> values)
    {
        long sum = 0;
        var i = 0;
        if (Vector.IsHardwareAccelerated)
        {
            var sums = Vector<long>.Zero;
            for (var width = Vector<double>.Count; i + width <= values.Length; i += width)
                sums += Vector.ConvertToInt64(new Vector<double>(values.Slice(i, width)) * FixedOne);
            sum = Vector.Sum(sums);
        }
        for (; i < values.Length; i++)
            sum += ToFixed(values[i]);
        return FromFixed(sum);
    }

    private const double FixedOne = 1L << 40;

    /// <summary>One value as <see cref="FixedSum"/> adds it.</summary>
    internal static long ToFixed(double v) => (long)(v * FixedOne);

    /// <summary>A sum of <see cref="ToFixed"/> values as <see cref="FixedSum"/> returns it.</summary>
    internal static double FromFixed(long sum) => sum / FixedOne;

    private const int MaxHeap = 64;

    // heap: a min-heap of the largest values seen, as many as are left out; its root is then the cut. Ties with the
    // cut are counted, so the result is exact whatever the ties. Both passes look at a vector of values at a time:
    // past the first few, almost none is above the root.
    private static double SumBelowLargest(ReadOnlySpan<double> values, int count, Span<double> heap)
    {
        for (var k = 0; k < heap.Length; k++)
            Push(heap, k, values[k]);
        var i = heap.Length;
        var width = Vector<double>.Count;
        if (Vector.IsHardwareAccelerated)
            for (; i + width <= values.Length; i += width)
                if (Vector.GreaterThanAny(new Vector<double>(values.Slice(i, width)), new Vector<double>(heap[0])))
                    for (var k = i; k < i + width; k++)
                        if (values[k] > heap[0])
                            ReplaceRoot(heap, values[k]);
        for (; i < values.Length; i++)
            if (values[i] > heap[0])
                ReplaceRoot(heap, values[i]);

        var cut = heap[0];
        long sum = 0,
            below = 0;
        var j = 0;
        if (Vector.IsHardwareAccelerated)
        {
            var cuts = new Vector<double>(cut);
            var sums = Vector<long>.Zero;
            var counts = Vector<long>.Zero;
            for (; j + width <= values.Length; j += width)
            {
                var chunk = new Vector<double>(values.Slice(j, width));
                var less = Vector.LessThan(chunk, cuts);
                sums += Vector.ConvertToInt64(chunk * FixedOne) & less;
                counts -= less; // all bits set (−1) where true
            }
            sum = Vector.Sum(sums);
            below = Vector.Sum(counts);
        }
        for (; j < values.Length; j++)
            if (values[j] < cut)
            {
                sum += ToFixed(values[j]);
                below++;
            }
        return (sum + (count - below) * ToFixed(cut)) / FixedOne;
    }

    private static void Push(Span<double> heap, int size, double v)
    {
        var i = size;
        while (i > 0 && heap[(i - 1) / 2] > v)
        {
            heap[i] = heap[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        heap[i] = v;
    }

    private static void ReplaceRoot(Span<double> heap, double v)
    {
        var i = 0;
        while (true)
        {
            var child = 2 * i + 1;
            if (child >= heap.Length)
                break;
            if (child + 1 < heap.Length && heap[child + 1] < heap[child])
                child++;
            if (heap[child] >= v)
                break;
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = v;
    }

    /// <summary>Partially orders the span so that values[k] is the k-th smallest and nothing before it is
    /// larger.</summary>
    public static void Select(Span<double> values, int k)
    {
        int left = 0,
            right = values.Length - 1;
        while (right > left)
        {
            // Median of three as pivot keeps sorted or nearly sorted input (slow series) from the quadratic case.
            var mid = left + (right - left) / 2;
            if (values[mid] < values[left])
                Swap(values, mid, left);
            if (values[right] < values[left])
                Swap(values, right, left);
            if (values[right] < values[mid])
                Swap(values, right, mid);
            var pivot = values[mid];
            int i = left,
                j = right;
            while (i <= j)
            {
                while (values[i] < pivot)
                    i++;
                while (values[j] > pivot)
                    j--;
                if (i <= j)
                {
                    Swap(values, i, j);
                    i++;
                    j--;
                }
            }
            if (k <= j)
                right = j;
            else if (k >= i)
                left = i;
            else
                return;
        }
    }

    private static void Swap(Span<double> v, int a, int b) => (v[a], v[b]) = (v[b], v[a]);
}
