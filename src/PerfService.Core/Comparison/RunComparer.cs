namespace PerfService.Core.Comparison;

/// <summary>
/// All comparisons of a run (benchmark × measure × profile) with the false discovery rate controlled across them.
/// Verdicts come back in input order.
/// </summary>
public static class RunComparer
{
    public static IReadOnlyList<Verdict> Compare(
        IReadOnlyList<ComparisonInput> inputs,
        ComparisonOptions? options = null
    )
    {
        options ??= ComparisonOptions.Default;
        var stats = new SampleStatistics[inputs.Count];
        var p = new double[inputs.Count];
        for (var i = 0; i < inputs.Count; i++)
            stats[i] = SampleComparer.Analyse(inputs[i], options);
        // Benchmarks without history borrow run-to-run spread from the others of the run, per measure (limma's
        // moderated
        // variance): the second pass re-analyses those that can use it.
        foreach (
            var measure in stats
                .Where(s => s.Spread == SpreadSource.Rounds)
                .Select(s => s.Input.Measure)
                .Distinct()
                .ToList()
        )
        {
            var prior = VariancePrior.Estimate(
                stats
                    .Where(s => s.Input.Measure == measure && !s.Identical && !s.Exact)
                    .Select(s => (s.RoundVariance, s.RoundDf))
                    .ToList()
            );
            if (prior is null)
                continue;
            for (var i = 0; i < inputs.Count; i++)
                if (stats[i].Spread == SpreadSource.Rounds && stats[i].Input.Measure == measure)
                    stats[i] = SampleComparer.Analyse(inputs[i], options, prior);
        }
        for (var i = 0; i < inputs.Count; i++)
        {
            // Identical constant samples and exactly compared measures are no test; counting them would only dilute α.
            p[i] = stats[i].Identical || stats[i].Exact ? double.NaN : stats[i].PValue;
        }
        var adjusted = FalseDiscovery.Adjust(p, options.Fdr);
        var verdicts = new Verdict[inputs.Count];
        for (var i = 0; i < inputs.Count; i++)
            verdicts[i] = SampleComparer.Decide(
                stats[i],
                stats[i].Identical || stats[i].Exact ? stats[i].PValue : adjusted[i],
                options
            );
        return verdicts;
    }
}
