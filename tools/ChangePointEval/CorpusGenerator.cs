namespace PerfService.ChangePointEval;

/// <summary>
/// Seeded generator of labelled per-commit series that look like benchmark history. Noise: log-normal with a CV
/// log-uniform in 0.5%–15%, of one kind — independent, AR(1) (φ 0.2–0.7), bimodal (a second mode 5%–20% up, taken by
/// 10%–40% of runs) or all of these at once with outliers (<see cref="NoiseKind.Combined"/>). Nuisances on top, each
/// independently: slow drift (1%–5% over the series, linear or a half sine), outliers (1%–3% of points; most up, some
/// down, with a heavy (Pareto) tail), random-walk wander of the level (innovations 3%–10% of the noise), and values
/// quantised to a clock tick of 0.5–2 noise standard deviations. A third of the series has no change; the others have
/// 1–4 steps of 2%–100% up or down (log-uniform size), at least <see cref="MinGap"/> points apart, the last as close as
/// <see cref="MinTail"/> points to the end (a change that just landed). In some series one step is a machine move
/// (3%–30%), after which the noise is 0.5–2× what it was.
/// </summary>
public static class CorpusGenerator
{
    public const int MinGap = 30;
    public const int MinTail = 8;

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
        var kind = kindDraw < 0.4 ? NoiseKind.Independent : kindDraw < 0.65 ? NoiseKind.Autocorrelated : kindDraw < 0.85 ? NoiseKind.Bimodal : NoiseKind.Combined;
        var phi = kind is NoiseKind.Autocorrelated or NoiseKind.Combined ? Uniform(rng, 0.2, 0.7) : 0;
        var bimodal = kind is NoiseKind.Bimodal or NoiseKind.Combined;
        var modeOffset = Math.Log(1 + Uniform(rng, 0.05, 0.2));
        var modeShare = Uniform(rng, 0.1, 0.4);
        var drift = rng.NextDouble() < 0.3;
        var driftAmplitude = Uniform(rng, 0.01, 0.05) * (rng.Next(2) == 0 ? 1 : -1);
        var driftSine = rng.Next(2) == 0;
        var outliers = kind == NoiseKind.Combined || rng.NextDouble() < 0.25;
        var outlierRate = Uniform(rng, 0.01, 0.03);
        var wander = rng.NextDouble() < 0.15;
        var wanderStep = Uniform(rng, 0.03, 0.1) * sigma;
        var quantised = rng.NextDouble() < 0.15;

        var changes = new List<TrueChange>();
        var move = -1;
        if (rng.NextDouble() >= 1.0 / 3)
        {
            var wanted = 1 + rng.Next(4);
            var at = MinGap;
            for (var c = 0; c < wanted; c++)
            {
                var room = length - MinTail - at;
                if (room < 0) break;
                var index = at + rng.Next(Math.Min(room, 150) + 1);
                var size = Math.Exp(Uniform(rng, Math.Log(0.02), Math.Log(1.0)));
                changes.Add(new TrueChange(index, rng.Next(2) == 0 ? 1 + size : 1 / (1 + size)));
                at = index + MinGap;
            }
            if (changes.Count > 0 && rng.NextDouble() < 0.2)
            {
                move = rng.Next(changes.Count);
                var size = Uniform(rng, 0.03, 0.3);
                changes[move] = changes[move] with { Factor = rng.Next(2) == 0 ? 1 + size : 1 / (1 + size) };
            }
        }

        var level = Math.Exp(Uniform(rng, Math.Log(10), Math.Log(1e6)));
        var tick = quantised ? level * sigma * Uniform(rng, 0.5, 2) : 0;
        var values = new double[length];
        var scale = sigma;
        double ar = Gaussian(rng) * sigma, walk = 0;
        var next = 0;
        for (var t = 0; t < length; t++)
        {
            while (next < changes.Count && changes[next].Index == t)
            {
                if (next == move)
                {
                    var moved = Math.Exp(Uniform(rng, Math.Log(0.5), Math.Log(2)));
                    scale *= moved;
                    changes[next] = changes[next] with { NoiseScale = moved };
                }
                level *= changes[next++].Factor;
            }
            var e = phi > 0 ? ar = phi * ar + Math.Sqrt(1 - phi * phi) * scale * Gaussian(rng) : scale * Gaussian(rng);
            if (bimodal && rng.NextDouble() < modeShare) e += modeOffset;
            if (wander) walk += wanderStep * Gaussian(rng);
            var d = !drift ? 0 : driftSine ? driftAmplitude * Math.Sin(Math.PI * t / length) : driftAmplitude * t / length;
            var v = level * Math.Exp(e + d + walk);
            if (outliers && rng.NextDouble() < outlierRate) v = Outlier(rng, v);
            if (quantised) v = Math.Max(1, Math.Round(v / tick)) * tick;
            values[t] = v;
        }
        var modeSpread = bimodal ? Math.Sqrt(modeShare * (1 - modeShare)) * modeOffset : 0;
        var noise = bimodal ? Math.Sqrt(sigma * sigma + modeShare * (1 - modeShare) * modeOffset * modeOffset) : sigma;
        return new LabelledSeries(id, values, changes, noise, kind, phi, drift, outliers, wander, quantised, move >= 0, modeSpread);
    }

    // Mostly slower (another process took the core), sometimes faster (a cached or skipped step); Pareto tail (α = 1.5).
    private static double Outlier(Random rng, double v)
    {
        var excess = Math.Min(4, 0.15 * Math.Pow(1 - rng.NextDouble(), -1 / 1.5));
        return rng.NextDouble() < 0.7 ? v * (1 + excess) : v / (1 + 0.5 * excess);
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
