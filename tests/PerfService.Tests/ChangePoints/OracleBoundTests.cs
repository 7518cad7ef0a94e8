using PerfService.ChangePointEval;
using PerfService.Core.ChangePoints;
using PerfService.Tests.Comparison;

namespace PerfService.Tests.ChangePoints;

public class OracleBoundTests
{
    private static LabelledSeries Labelled(int length, double noise, TrueChange[] changes, double phi = 0, double modeSpread = 0) =>
        new("x", new double[length], changes, noise, phi > 0 ? NoiseKind.Autocorrelated : NoiseKind.Independent, phi, false, false, ModeSpread: modeSpread);

    [Fact]
    public void Independent_noise_gives_the_textbook_z_on_capped_segments()
    {
        var s = Labelled(400, 0.02, [new TrueChange(200, 1.1)]);
        // 200 points a side, capped at 120: z = ln 1.1 / (σ √(1/120 + 1/120)).
        Assert.Equal(Math.Log(1.1) / (0.02 * Math.Sqrt(2.0 / 120)), OracleBound.Z(s, 0), 9);
        // Online, three points after the change against the capped segment before it.
        Assert.Equal(Math.Log(1.1) / (0.02 * Math.Sqrt(1.0 / 120 + 1.0 / 3)), OracleBound.Z(s, 0, 3), 9);
        // A down step is as strong as the up step of the same factor.
        Assert.Equal(OracleBound.Z(s, 0), OracleBound.Z(s with { Changes = [new TrueChange(200, 1 / 1.1)] }, 0), 9);
    }

    [Fact]
    public void Segments_end_at_the_neighbouring_true_changes()
    {
        var s = Labelled(300, 0.02, [new TrueChange(40, 1.2), new TrueChange(100, 1.2), new TrueChange(290, 1.2)]);
        Assert.Equal(Math.Log(1.2) / (0.02 * Math.Sqrt(1.0 / 40 + 1.0 / 60)), OracleBound.Z(s, 0), 9);
        Assert.Equal(Math.Log(1.2) / (0.02 * Math.Sqrt(1.0 / 60 + 1.0 / 120)), OracleBound.Z(s, 1), 9);
        Assert.Equal(Math.Log(1.2) / (0.02 * Math.Sqrt(1.0 / 120 + 1.0 / 10)), OracleBound.Z(s, 2), 9);
    }

    [Fact]
    public void A_machine_move_scales_the_noise_after_it_and_modes_add_independent_spread()
    {
        var moved = Labelled(400, 0.02, [new TrueChange(100, 1.2, NoiseScale: 2), new TrueChange(250, 1.2)]);
        Assert.Equal(Math.Log(1.2) / Math.Sqrt(0.02 * 0.02 / 100 + 0.04 * 0.04 / 120), OracleBound.Z(moved, 0), 9);
        Assert.Equal(Math.Log(1.2) / (0.04 * Math.Sqrt(1.0 / 120 + 1.0 / 120)), OracleBound.Z(moved, 1), 9);
        // Noise 0.05 of which 0.03 is the modes' spread: the Gaussian part is 0.04, and neither AR nor a move touches
        // the modes.
        var bimodal = Labelled(400, 0.05, [new TrueChange(200, 1.2, NoiseScale: 0.5)], modeSpread: 0.03);
        Assert.Equal(Math.Log(1.2) / Math.Sqrt(0.04 * 0.04 / 120 + 0.02 * 0.02 / 120 + 0.03 * 0.03 * 2.0 / 120), OracleBound.Z(bimodal, 0), 9);
    }

    [Fact]
    public void The_AR_variance_of_a_step_matches_simulated_AR_noise()
    {
        // Monte Carlo of the oracle's statistic itself: the mean of 3 AR(1) points after a point minus the mean of 60
        // before it, φ = 0.6, unit marginal variance, on one continuous process (so the two means are correlated).
        const double phi = 0.6;
        var rng = new Random(7);
        var diffs = new double[20000];
        for (var r = 0; r < diffs.Length; r++)
        {
            var e = Samples.Gaussian(rng);
            double before = 0, after = 0;
            for (var t = 0; t < 63; t++)
            {
                e = phi * e + Math.Sqrt(1 - phi * phi) * Samples.Gaussian(rng);
                if (t < 60) before += e; else after += e;
            }
            diffs[r] = after / 3 - before / 60;
        }
        var simulated = diffs.Select(d => d * d).Average();
        var formula = OracleBound.MeanVariance(60, phi) + OracleBound.MeanVariance(3, phi) - 2 * OracleBound.CrossCovariance(60, 3, phi);
        Assert.InRange(simulated / formula, 0.96, 1.04);
        // Independent noise: the variance of a mean of n is 1/n and adjacent means are uncorrelated.
        Assert.Equal(0.25, OracleBound.MeanVariance(4, 0), 12);
        Assert.Equal(0, OracleBound.CrossCovariance(60, 3, 0));
        // f(3) = 1 + 2(⅔φ + ⅓φ²) for φ = 0.5: 1.8333…, over 3.
        Assert.Equal((1 + 2 * (2.0 / 3 * 0.5 + 1.0 / 3 * 0.25)) / 3, OracleBound.MeanVariance(3, 0.5), 12);
    }

    [Fact]
    public void Shares_count_large_steps_at_both_bars_and_all_changes_offline()
    {
        // 0.02 noise: a 40% step has z ≈ 28 after 3 points; a 31% step on 0.6 noise has z ≈ 0.8 (3.5 offline). A 5% step
        // on 0.02 noise is not a large step, but its offline z (≈ 19) counts towards the offline shares.
        var strong = Labelled(300, 0.02, [new TrueChange(150, 1.4)]);
        var weak = Labelled(300, 0.6, [new TrueChange(150, 1.31)]);
        var small = Labelled(300, 0.02, [new TrueChange(150, 1.05)]);
        var shares = OracleBound.Shares([strong, weak, small], 7, 0.5);
        Assert.Equal(3.48, shares.BudgetBar, 2);
        Assert.Equal((2, 0.5, 0.5, 0.5, 0.5), (shares.LargeSteps, shares.BudgetEarly, shares.BudgetLater, shares.FastEarly, shares.FastLater));
        Assert.Equal(3, shares.Changes);
        Assert.Equal(2.0 / 3, shares.Z4, 9);
        // The budget bar: two-sided, one test per point, 0.5 false alarms per 1,000 points.
        Assert.Equal(3.4808, OracleBound.BudgetBar(0.5), 3);
    }

    // One step of `deviations` noise deviations at 200 of 400 points, independent Gaussian noise of 2%.
    private static LabelledSeries Stepped(Random rng, double deviations)
    {
        var values = new double[400];
        for (var i = 0; i < values.Length; i++)
            values[i] = 100 * Math.Exp(0.02 * (Samples.Gaussian(rng) + (i >= 200 ? deviations : 0)));
        return new("x", values, [new TrueChange(200, Math.Exp(0.02 * deviations))], 0.02, NoiseKind.Independent, 0, false, false);
    }

    [Fact]
    public void The_oracle_places_large_steps_within_the_tolerance_and_scatters_steps_of_half_a_deviation()
    {
        var rng = new Random(5);
        var large = Enumerable.Range(0, 200).Count(_ => OracleBound.Placed(Stepped(rng, 2), 0));
        var small = Enumerable.Range(0, 200).Count(_ => OracleBound.Placed(Stepped(rng, 0.5), 0));
        // A 2σ step is placed within ±3 in 97.5% of 1,000 series; a 0.5σ step, whose z on 120 points a side is still
        // 3.9, in 39% (the split of a random walk with drift ±δ²/2).
        Assert.InRange(large, 185, 200);
        Assert.InRange(small, 30, 110);
        // A step placed by hand at its split: the last point before it and the first after it decide.
        var exact = Labelled(100, 0.02, [new TrueChange(50, 1.5)]) with { Values = [.. Enumerable.Range(0, 100).Select(i => i < 50 ? 1.0 : 1.5)] };
        Assert.True(OracleBound.Placed(exact, 0));
        Assert.False(OracleBound.Placed(exact with { Changes = [new TrueChange(46, 1.5)] }, 0));
    }

    [Fact]
    public void Shares_of_placed_changes_are_a_part_of_the_shares_by_z_and_the_goals_say_what_F1_needs()
    {
        var corpus = CorpusGenerator.Generate(80, 3);
        var shares = OracleBound.Shares(corpus, 5, 0.5);
        Assert.InRange(shares.Z4Placed, 0.3, shares.Z4);
        Assert.InRange(shares.Z5Placed, 0.3, Math.Min(shares.Z5, shares.Z4Placed));
        // F1 = 2PR/(P + R): at precision 0.9, F1 0.82 needs recall 0.7535; unreachable F1 needs everything.
        var needed = Goals.RecallFor(0.82, 0.9);
        Assert.Equal(0.82, 2 * 0.9 * needed / (0.9 + needed), 9);
        Assert.Equal(1, Goals.RecallFor(0.82, 0.4));
        var report = CorpusEvaluator.Evaluate(corpus, ChangePointOptions.Default, online: true);
        var goals = Goals.Render(report, report, shares);
        Assert.Contains(FormattableString.Invariant($"F1 ≥ 0.82 needs recall {Goals.RecallFor(0.82, report.Retrospective.Precision):0.000}"), goals);
        Assert.Contains(FormattableString.Invariant($"| {shares.Z4Placed:0.000} / {shares.Z5Placed:0.000} | bound |"), goals);
    }

    [Fact]
    public void The_generator_records_the_machine_move_and_the_modes()
    {
        var corpus = CorpusGenerator.Generate(200, 11);
        Assert.All(corpus, s => Assert.Equal(s.MachineMove ? 1 : 0, s.Changes.Count(c => c.NoiseScale != 1)));
        Assert.All(corpus.Where(s => s.MachineMove).SelectMany(s => s.Changes), c => Assert.InRange(c.NoiseScale, 0.5, 2));
        Assert.All(corpus, s => Assert.Equal(s.Kind is NoiseKind.Bimodal or NoiseKind.Combined, s.ModeSpread > 0));
        Assert.All(corpus, s => Assert.True(s.ModeSpread < s.Noise));
        // The detector's own report and the bound agree on which steps are large.
        var report = CorpusEvaluator.Evaluate(corpus.Take(60).ToList(), ChangePointOptions.Default, online: false);
        Assert.Equal(report.Retrospective.Truths30, OracleBound.Shares(corpus.Take(60).ToList(), 7, 0.5).LargeSteps);
    }
}
