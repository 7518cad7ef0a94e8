namespace PerfService.Core.Comparison;

/// <summary>
/// False-discovery-rate adjusted p-values (step-up). A run of 500 benchmarks × several measures at α = 0.05 would
/// otherwise raise ~25 alarms from chance alone; controlling the FDR bounds the expected share of false alarms among
/// the alarms raised. The default is Benjamini–Yekutieli: benchmarks of one run share a process, a machine and code
/// paths, so their test statistics are dependent in ways we cannot characterise, and BY is valid under any
/// dependence. Its cost (dividing α by ~ln m) is small in practice, since a real regression beyond the threshold
/// has a p-value far below the cut-off.
/// NaN p-values (comparisons that could not be tested) are left out of the family and stay NaN.
/// </summary>
public static class FalseDiscovery
{
    public static double[] Adjust(ReadOnlySpan<double> pValues, FdrMethod method)
    {
        var adjusted = new double[pValues.Length];
        var order = new int[pValues.Length];
        var m = 0;
        for (var i = 0; i < pValues.Length; i++)
        {
            adjusted[i] = pValues[i];
            if (!double.IsNaN(pValues[i]))
                order[m++] = i;
        }
        if (method == FdrMethod.None || m == 0)
            return adjusted;
        var idx = order.AsSpan(0, m);
        var keys = new double[m];
        for (var i = 0; i < m; i++)
            keys[i] = pValues[idx[i]];
        keys.AsSpan().Sort(idx);

        double c = 1;
        if (method == FdrMethod.BenjaminiYekutieli)
        {
            c = 0;
            for (var i = 1; i <= m; i++)
                c += 1.0 / i;
        }
        // q(i) = min over j ≥ i of (m·c/j)·p(j), capped at 1: walking down from the largest keeps it monotone.
        var running = 1.0;
        for (var rank = m; rank >= 1; rank--)
        {
            var q = Math.Min(1.0, keys[rank - 1] * m * c / rank);
            if (q < running)
                running = q;
            adjusted[idx[rank - 1]] = running;
        }
        return adjusted;
    }
}
