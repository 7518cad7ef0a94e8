using PerfService.Core.ChangePoints;

namespace PerfService.ChangePointEval;

/// <summary>
/// Seeded generator of labelled per-commit series that look like benchmark history: log-normal noise of 0.5%–15%,
/// AR(1) autocorrelated noise (φ 0.2–0.7), bimodal series, upward outliers (1% of points, +20%…+100%), slow drift
/// (1%–5% over the whole series, linear or a half sine), and 0–3 steps of 2%–100% up or down (log-uniform size).
/// A third of the series has no change at all. Steps are at least <see cref="MinGap"/> points apart and from the
/// ends: closer changes are outside what a W = 30 window can resolve, and a change needs points after it to exist.
/// </summary>
public static class CorpusGenerator
{
    public const int MinGap = 40;

    public static IReadOnlyList<LabelledSeries> Generate(int count, int seed, int minLength = 100, int maxLength = 500)
    {
        var rng = new Random(seed);
        var result = new List<LabelledSeries>(count);
        for (var s = 0; s < count; s++) result.Add(One(rng, $"s{s:D4}", rng.Next(minLength, maxLength + 1)));
        return result;
    }

    private static LabelledSeries One(Random rng, string id, int length)
    {
        var sigma = Math.Exp(Uniform(rng, Math.Log(0.005), Math.Log(0.15)));
        var kindDraw = rng.NextDouble();
        var kind = kindDraw < 0.45 ? NoiseKind.Independent : kindDraw < 0.8 ? NoiseKind.Autocorrelated : NoiseKind.Bimodal;
        var phi = kind == NoiseKind.Autocorrelated ? Uniform(rng, 0.2, 0.7) : 0;
        var modeOffset = Math.Log(1 + Uniform(rng, 0.05, 0.2));
        var modeShare = Uniform(rng, 0.1, 0.4);
        var drift = rng.NextDouble() < 0.4;
        var driftAmplitude = Uniform(rng, 0.01, 0.05) * (rng.Next(2) == 0 ? 1 : -1);
        var driftSine = rng.Next(2) == 0;
        var outliers = rng.NextDouble() < 0.3;

        var changes = new List<TrueChange>();
        if (rng.NextDouble() >= 1.0 / 3)
        {
            var wanted = 1 + rng.Next(3);
            var at = MinGap;
            for (var c = 0; c < wanted; c++)
            {
                var room = length - MinGap - at;
                if (room < 0) break;
                var index = at + rng.Next(Math.Min(room, 150) + 1);
                var size = Math.Exp(Uniform(rng, Math.Log(0.02), Math.Log(1.0)));
                changes.Add(new TrueChange(index, rng.Next(2) == 0 ? 1 + size : 1 / (1 + size)));
                at = index + MinGap;
            }
        }

        var level = Math.Exp(Uniform(rng, Math.Log(10), Math.Log(1e6)));
        var values = new double[length];
        double ar = Gaussian(rng) * sigma;
        var next = 0;
        for (var t = 0; t < length; t++)
        {
            while (next < changes.Count && changes[next].Index == t) level *= changes[next++].Factor;
            double e;
            switch (kind)
            {
                case NoiseKind.Autocorrelated:
                    ar = phi * ar + Math.Sqrt(1 - phi * phi) * sigma * Gaussian(rng);
                    e = ar;
                    break;
                case NoiseKind.Bimodal:
                    e = sigma * Gaussian(rng) + (rng.NextDouble() < modeShare ? modeOffset : 0);
                    break;
                default:
                    e = sigma * Gaussian(rng);
                    break;
            }
            var d = !drift ? 0 : driftSine ? driftAmplitude * Math.Sin(Math.PI * t / length) : driftAmplitude * t / length;
            var v = level * Math.Exp(e + d);
            if (outliers && rng.NextDouble() < 0.01) v *= 1 + Uniform(rng, 0.2, 1.0);
            values[t] = v;
        }
        var noise = kind == NoiseKind.Bimodal
            ? Math.Sqrt(sigma * sigma + modeShare * (1 - modeShare) * modeOffset * modeOffset)
            : sigma;
        return new LabelledSeries(id, values, changes, noise, kind, phi, drift, outliers);
    }

    private static double Uniform(Random rng, double a, double b) => a + (b - a) * rng.NextDouble();

    // Box–Muller; System.Random has no Gaussian of its own.
    internal static double Gaussian(Random rng)
    {
        var u1 = 1.0 - rng.NextDouble();
        var u2 = rng.NextDouble();
        return Math.Sqrt(-2.0 * Math.Log(u1)) * Math.Cos(2.0 * Math.PI * u2);
    }
}
