namespace PerfService.Core.Comparison;

/// <summary>
/// A prior for the round-to-round variance of one measure, estimated from all benchmarks of the same run: the
/// empirical-Bayes step of Smyth's "moderated t" (limma; Stat. Appl. Genet. Mol. Biol. 3(1), 2004, §6). Each
/// benchmark's variance s²_g with d_g degrees of freedom is taken as a scaled χ² draw around a prior s₀² that itself
/// varies between benchmarks with d₀ degrees of freedom; the moments of log s²_g give both. A benchmark's variance is
/// then (d₀·s₀² + d_g·s²_g)/(d₀ + d_g) with d₀ + d_g degrees of freedom. When the benchmarks' variances differ a lot,
/// d₀ comes out small and little is borrowed; when they agree (one machine's run-to-run noise), three rounds a side no
/// longer mean a t test on 4 degrees of freedom.
/// </summary>
public readonly record struct VariancePrior(double Variance, double Df)
{
    /// <summary>Benchmarks (with a positive variance) needed before a prior is estimated at all.</summary>
    public const int MinBenchmarks = 8;

    /// <summary>
    /// Cap on d₀: half of the run-to-run noise is shared by every benchmark of a round (the machine's state), so the
    /// benchmarks' variances are not independent and agree more than independent draws would; a capped prior keeps one
    /// run's benchmarks from vouching for each other without limit.
    /// </summary>
    public const double MaxDf = 20;

    /// <summary>The prior from (variance, df) pairs; null when there are too few or they carry no
    /// information.</summary>
    public static VariancePrior? Estimate(IReadOnlyList<(double Variance, double Df)> estimates)
    {
        var usable = estimates.Where(e => e.Df > 0 && e.Variance > 0 && double.IsFinite(e.Variance)).ToList();
        var g = usable.Count;
        if (g < MinBenchmarks)
            return null;
        var e = usable.Select(x => Math.Log(x.Variance) - Digamma(x.Df / 2) + Math.Log(x.Df / 2)).ToArray();
        var mean = e.Average();
        var spread = 0.0;
        for (var i = 0; i < g; i++)
            spread += (e[i] - mean) * (e[i] - mean) * g / (g - 1) - Trigamma(usable[i].Df / 2);
        spread /= g;
        var df = spread > 0 ? Math.Min(MaxDf, 2 * TrigammaInverse(spread)) : MaxDf;
        var variance = Math.Exp(mean + Digamma(df / 2) - Math.Log(df / 2));
        return double.IsFinite(variance) && variance > 0 ? new VariancePrior(variance, df) : null;
    }

    /// <summary>ψ(x) for x &gt; 0: recurrence up to x ≥ 6, then the asymptotic series.</summary>
    public static double Digamma(double x)
    {
        var result = 0.0;
        while (x < 6)
        {
            result -= 1 / x;
            x++;
        }
        var f = 1 / (x * x);
        return result
            + Math.Log(x)
            - 0.5 / x
            - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
    }

    /// <summary>ψ′(x) for x &gt; 0: recurrence up to x ≥ 6, then the asymptotic series.</summary>
    public static double Trigamma(double x)
    {
        var result = 0.0;
        while (x < 6)
        {
            result += 1 / (x * x);
            x++;
        }
        var f = 1 / (x * x);
        return result + 1 / x + f / 2 + f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f / 30)));
    }

    /// <summary>The x with ψ′(x) = y, by Smyth's Newton iteration on 1/ψ′ (limma's trigammaInverse).</summary>
    public static double TrigammaInverse(double y)
    {
        if (y > 1e7)
            return 1 / Math.Sqrt(y);
        if (y < 1e-6)
            return 1 / y;
        var x = 0.5 + 1 / y;
        for (var i = 0; i < 50; i++)
        {
            var tri = Trigamma(x);
            var dif = tri * (1 - tri / y) / Tetragamma(x);
            x += dif;
            if (-dif / x < 1e-8)
                break;
        }
        return x;
    }

    /// <summary>ψ″(x), numerically from ψ′ (only Newton's step size depends on it).</summary>
    private static double Tetragamma(double x)
    {
        var h = 1e-4 * Math.Max(1, x);
        return (Trigamma(x + h) - Trigamma(x - h)) / (2 * h);
    }
}
