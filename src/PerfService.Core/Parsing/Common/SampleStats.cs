using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Common;

/// <summary>
/// Summary of repeats for harnesses that report raw repeats but no statistics (Go's -count, the generic JSON).
/// Only plain descriptive statistics: no confidence interval is invented.
/// </summary>
internal static class SampleStats
{
    public static double Mean(IReadOnlyList<double> samples)
    {
        // Kahan-free mean is fine: values are bounded by Limits.MaxAbsValue, so the sum cannot overflow.
        var sum = 0.0;
        foreach (var s in samples)
            sum += s;
        return sum / samples.Count;
    }

    public static Summary Summarize(IReadOnlyList<double> samples)
    {
        if (samples.Count == 0)
            throw new ArgumentException("no samples", nameof(samples));
        // Sorted on the stack for a harness's usual few dozen samples: a copy per result was a twentieth of what
        // ingest allocated.
        var n = samples.Count;
        Span<double> sorted = n <= 512 ? stackalloc double[n] : new double[n];
        for (var i = 0; i < n; i++)
            sorted[i] = samples[i];
        sorted.Sort();
        var mean = Mean(samples);
        var median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        double? stdDev = null;
        if (n > 1)
        {
            var ss = 0.0;
            foreach (var s in sorted)
                ss += (s - mean) * (s - mean);
            stdDev = Math.Sqrt(ss / (n - 1));
        }
        return new Summary
        {
            Mean = mean,
            Median = median,
            StdDev = stdDev,
            Min = sorted[0],
            Max = sorted[^1],
            N = n,
        };
    }
}
