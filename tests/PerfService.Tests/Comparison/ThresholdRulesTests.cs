using PerfService.Core.Comparison;
using PerfService.Core.Results;

namespace PerfService.Tests.Comparison;

public class ThresholdRulesTests
{
    [Fact]
    public void An_exact_key_beats_any_glob_even_a_longer_one()
    {
        var rules = new ThresholdRules([
            new ThresholdRule("Rivulet.Streams.ParallelFor(N=10)*", null, 0.30),
            new ThresholdRule("Rivulet.Streams.ParallelFor(N=10)", null, 0.10),
        ]);
        Assert.Equal(0.10, rules.ThresholdFor("Rivulet.Streams.ParallelFor(N=10)", Measures.Time));
    }

    [Fact]
    public void Among_globs_the_longest_pattern_wins()
    {
        var rules = new ThresholdRules([
            new ThresholdRule("Rivulet.*", null, 0.20),
            new ThresholdRule("Rivulet.*Parallel*", null, 0.15),
            new ThresholdRule("*", null, 0.50),
        ]);
        Assert.Equal(0.15, rules.ThresholdFor("Rivulet.Streams.ParallelFor", Measures.Time));
        Assert.Equal(0.20, rules.ThresholdFor("Rivulet.Streams.Map", Measures.Time));
        Assert.Equal(0.50, rules.ThresholdFor("Other.Thing", Measures.Time));
    }

    [Fact]
    public void A_measure_restricted_rule_beats_an_unrestricted_one_of_the_same_pattern()
    {
        var rules = new ThresholdRules([
            new ThresholdRule("Json.*", null, 0.10),
            new ThresholdRule("Json.*", Measures.Allocated, 0.01),
        ]);
        Assert.Equal(0.01, rules.ThresholdFor("Json.Parse", Measures.Allocated));
        Assert.Equal(0.10, rules.ThresholdFor("Json.Parse", Measures.Time));
        // Measure names match whatever their case.
        Assert.Equal(0.01, rules.ThresholdFor("Json.Parse", "ALLOC"));
    }

    [Fact]
    public void Pattern_length_outranks_the_measure_restriction_and_exact_keys_honour_it_too()
    {
        var rules = new ThresholdRules([
            new ThresholdRule("Json.*", Measures.Time, 0.02),
            new ThresholdRule("Json.Parse*", null, 0.08),
            new ThresholdRule("Json.Parse", null, 0.12),
            new ThresholdRule("Json.Parse", Measures.Time, 0.03),
        ]);
        Assert.Equal(0.08, rules.ThresholdFor("Json.ParseFast", Measures.Time));
        Assert.Equal(0.03, rules.ThresholdFor("Json.Parse", Measures.Time));
        Assert.Equal(0.12, rules.ThresholdFor("Json.Parse", Measures.Allocated));
    }

    [Fact]
    public void Ties_do_not_depend_on_the_stored_order()
    {
        ThresholdRule[] tied = [new("Json.P??se", null, 0.10), new("Json.Pars?", null, 0.20), new("Json.Par*", null, 0.30)];
        // Equal length: more literal characters is the more specific pattern.
        Assert.Equal("Json.Pars?", new ThresholdRules(tied).Find("Json.Parse", Measures.Time)!.Pattern);
        Assert.Equal("Json.Pars?", new ThresholdRules(tied.Reverse()).Find("Json.Parse", Measures.Time)!.Pattern);
        // Equal in everything: an ordinal order, the same whichever order the rules came in.
        ThresholdRule[] same = [new("Json.*arse", null, 0.10), new("Json.Pars*", null, 0.20)];
        Assert.Equal(new ThresholdRules(same).Find("Json.Parse", Measures.Time), new ThresholdRules(same.Reverse()).Find("Json.Parse", Measures.Time));
    }

    [Fact]
    public void No_match_leaves_the_threshold_to_the_noise()
    {
        var rules = new ThresholdRules([new ThresholdRule("Rivulet.*", Measures.Time, 0.10)]);
        Assert.Null(rules.ThresholdFor("Other.Thing", Measures.Time));
        Assert.Null(rules.ThresholdFor("Rivulet.Map", Measures.Allocated));
        Assert.Null(ThresholdRules.None.ThresholdFor("Rivulet.Map", Measures.Time));
    }

    [Fact]
    public void An_override_decides_the_verdict_instead_of_the_default()
    {
        var rng = new Random(5);
        var input = new ComparisonInput("Rivulet.Parallel", Measures.Time, "ns", Direction.LowerIsBetter,
            Samples.LogNormal(rng, 100, 0.01, 40), Samples.LogNormal(rng, 108, 0.01, 40));
        Assert.Equal(Outcome.Regression, SampleComparer.Compare(input).Outcome);

        var rules = new ThresholdRules([new ThresholdRule("Rivulet.*", null, 0.15)]);
        var verdict = SampleComparer.Compare(input with { Threshold = rules.ThresholdFor(input.Key, input.Measure) });
        Assert.Equal(Outcome.NoChange, verdict.Outcome);
        Assert.Equal(ThresholdSource.Override, verdict.ThresholdSource);
    }

    [Fact]
    public void A_history_baseline_is_named_in_the_reason_and_recognised_again()
    {
        var reason = HistoryBaseline.Annotate("+8.0% CI [+7.5%, +8.6%] beyond ±5%, p<0.0001", "main", 5, "1a2b3c4d5e6f7081");
        Assert.Equal("+8.0% CI [+7.5%, +8.6%] beyond ±5%, p<0.0001; baseline from main history: 5 runs at or before 1a2b3c4d5e", reason);
        Assert.True(HistoryBaseline.IsAnnotated(reason));
        Assert.Contains("the latest 1 run (base commit not known)", HistoryBaseline.Annotate("x", "main", 1, null));
        Assert.False(HistoryBaseline.IsAnnotated("no significant change (p=0.4), +0.3% within ±5%"));
        Assert.False(HistoryBaseline.IsAnnotated(null));
    }
}
