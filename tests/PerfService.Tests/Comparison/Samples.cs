namespace PerfService.Tests.Comparison;

/// <summary>Seeded sample generators for the statistics tests.</summary>
internal static class Samples
{
    public static double Gaussian(Random rng)
    {
        var u1 = 1.0 - rng.NextDouble();
        var u2 = rng.NextDouble();
        return Math.Sqrt(-2.0 * Math.Log(u1)) * Math.Cos(2.0 * Math.PI * u2);
    }

    /// <summary>n log-normal values around <paramref name="median"/> with relative spread <paramref name="sigma"/>.</summary>
    public static double[] LogNormal(Random rng, double median, double sigma, int n)
    {
        var v = new double[n];
        for (var i = 0; i < n; i++) v[i] = median * Math.Exp(sigma * Gaussian(rng));
        return v;
    }
}
