using PerfService.Core.Comparison;
using PerfService.Core.Results;

namespace PerfService.Tests.Comparison;

public class ComparisonTableTests
{
    [Fact]
    public void Regressions_come_first_and_columns_align()
    {
        var rng = new Random(30);
        ComparisonInput Make(string key, double head) => new(key, Measures.Time, "ns", Direction.LowerIsBetter,
            Samples.LogNormal(rng, 100, 0.02, 30), Samples.LogNormal(rng, head, 0.02, 30));
        var verdicts = RunComparer.Compare([Make("A.Same", 100), Make("B.Faster", 80), Make("C.Slower", 125), Make("D.Tiny", 101)]);
        var text = ComparisonTable.Render(verdicts);
        var lines = text.TrimEnd('\n').Split('\n');
        Assert.StartsWith("Benchmark", lines[0]);
        Assert.StartsWith("---", lines[1]);
        Assert.StartsWith("C.Slower", lines[2]);
        Assert.Contains("REGRESSION", lines[2]);
        Assert.StartsWith("B.Faster", lines[3]);
        Assert.Contains("improvement", lines[3]);
        Assert.Equal("1 regression(s), 1 improvement(s), 0 inconclusive, 2 unchanged", lines[^1]);
        // The verdict column starts at the same offset on every row.
        var at = lines[0].IndexOf("Verdict", StringComparison.Ordinal);
        Assert.All(lines.Skip(2).Take(4), l => Assert.NotEqual(' ', l[at]));
        Assert.Contains("+", lines[2]);
        Assert.Contains("%", lines[2]);
        Assert.Contains(" ns", lines[2]);
    }

    [Fact]
    public void Inconclusive_rows_say_rerun_and_can_show_reasons()
    {
        var v = SampleComparer.Compare(new ComparisonInput("X", Measures.Time, "ns", Direction.LowerIsBetter, [1, 2], [3, 4]));
        var text = ComparisonTable.Render([v], includeReason: true);
        Assert.Contains("inconclusive (re-run)", text);
        Assert.Contains("too few samples", text);
        Assert.Contains("n/a", text);
    }
}
