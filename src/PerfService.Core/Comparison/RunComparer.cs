namespace PerfService.Core.Comparison;

/// <summary>
/// All comparisons of a run (benchmark × measure × profile) with the false discovery rate controlled across them.
/// Verdicts come back in input order.
/// </summary>
public static class RunComparer
{
    public static IReadOnlyList<Verdict> Compare(IReadOnlyList<ComparisonInput> inputs, ComparisonOptions? options = null)
    {
        options ??= ComparisonOptions.Default;
        var stats = new SampleStatistics[inputs.Count];
        var p = new double[inputs.Count];
        for (var i = 0; i < inputs.Count; i++)
        {
            stats[i] = SampleComparer.Analyse(inputs[i], options);
            // Identical constant samples and exactly compared measures are no test; counting them would only dilute α.
            p[i] = stats[i].Identical || stats[i].Exact ? double.NaN : stats[i].PValue;
        }
        var adjusted = FalseDiscovery.Adjust(p, options.Fdr);
        var verdicts = new Verdict[inputs.Count];
        for (var i = 0; i < inputs.Count; i++)
            verdicts[i] = SampleComparer.Decide(stats[i], stats[i].Identical || stats[i].Exact ? stats[i].PValue : adjusted[i], options);
        return verdicts;
    }
}
