using System.Globalization;
using PerfService.Core.Comparison;
using PerfService.Core.Parsing;
using PerfService.Core.Reports;
using PerfService.Core.Results;
using PerfService.Tests.Parsing;

namespace PerfService.Tests.Comparison;

/// <summary>
/// The base and head figures every reader shows are the estimates the change is computed from: change = head/base − 1,
/// in the verdict, the PR comment (built the way the service builds its report rows) and the CLI table.
/// </summary>
public class OneSetOfNumbersTests
{
    public static TheoryData<string> Fixtures() =>
    [
        "benchmarkdotnet/powerutils-bdn0.15.1-gen0-gen1-report-full.json",
        "benchmarkdotnet/newday-bdn0.15.8-params-servergc-report-full.json",
        "criterion/cryptobench-criterion-0.5.1",
        "gobench/goperf-suffixarray-benchmem-count10.txt",
    ];

    [Theory]
    [MemberData(nameof(Fixtures))]
    public void Change_is_head_over_base_everywhere(string fixture)
    {
        var results = ResultParsers.Parse(ParsingFixtures.Load(fixture)).Results.Where(r => !r.Failed).ToList();
        // Head: every third benchmark 30% slower, every third 20% faster, the rest as they were; two rounds a side.
        var inputs = results.Select((r, i) =>
        {
            var factor = (i % 3) switch { 0 => 1.3, 1 => 0.8, _ => 1.0 };
            IReadOnlyList<double> Of(BenchmarkResult x, double f) => (x.Samples is { Count: > 0 } s ? s : [x.Value!.Value]).Select(v => v * f).ToList();
            return ComparisonInput.FromRounds(r.Key, r.Measure, r.Unit, r.Direction, [Of(r, 1), Of(r, 1.01)], [Of(r, factor), Of(r, factor * 1.01)]);
        }).ToList();
        var verdicts = RunComparer.Compare(inputs);

        var rows = verdicts.Select(v => new ReportRow
        {
            Benchmark = v.Key, Measure = v.Measure, Unit = v.Unit, Profile = "p",
            Outcome = v.Outcome,
            BaseValue = Finite(v.BaseMedian), HeadValue = Finite(v.HeadMedian), Change = Finite(v.Change),
            ChangeCiLower = Finite(v.ChangeLower), ChangeCiUpper = Finite(v.ChangeUpper), PValue = Finite(v.AdjustedP), Reason = v.Reason,
        }).ToList();
        var comment = CommentRenderer.Render(new PullRequestReport { Project = "demo", PullRequest = 1, HeadCommit = "abc", Rows = rows }, int.MaxValue);
        var table = ComparisonTable.Render(verdicts);

        Assert.NotEmpty(verdicts);
        foreach (var (v, row) in verdicts.Zip(rows))
        {
            if (row.Change is null || row.BaseValue is not { } b || b == 0) continue;
            Assert.Equal(row.HeadValue!.Value / b - 1, row.Change.Value, 9);
            if (v.Outcome is Outcome.Regression or Outcome.Improvement)
            {
                // What a reader computes from the figures shown is the change shown, to the rounding of the display.
                Assert.Contains(ValueFormat.Change(row.HeadValue.Value / b - 1), comment);
                Assert.Contains(SampleComparer.Pct(v.Change), table);
            }
        }
        // The planted changes are found: the real fixtures' noise is within-run only here, both rounds ~1% apart.
        Assert.Contains(verdicts, v => v.Outcome == Outcome.Regression);
    }

    private static double? Finite(double x) => double.IsFinite(x) ? x : null;
}
