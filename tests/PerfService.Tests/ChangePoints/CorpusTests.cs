using PerfService.Core.ChangePoints;
using PerfService.ChangePointEval;
using Xunit.Abstractions;

namespace PerfService.Tests.ChangePoints;

public class CorpusTests(ITestOutputHelper output)
{
    [Fact]
    public void The_generator_is_deterministic_and_labelled()
    {
        var a = CorpusGenerator.Generate(30, 5);
        var b = CorpusGenerator.Generate(30, 5);
        Assert.Equal(a.Select(s => s.Values.Sum()), b.Select(s => s.Values.Sum()));
        Assert.All(a, s => Assert.InRange(s.Values.Length, 100, 500));
        Assert.All(a, s => Assert.All(s.Values, v => Assert.True(v > 0 && double.IsFinite(v))));
        Assert.Contains(a, s => s.Changes.Count == 0);
        Assert.Contains(a, s => s.Changes.Count > 0);
        Assert.Contains(a, s => s.Kind == NoiseKind.Autocorrelated);
        Assert.Contains(a, s => s.Drift);
        Assert.All(a.SelectMany(s => s.Changes), c => Assert.InRange(c.Size, 0.02, 1.0));
    }

    [Fact]
    public void The_detector_meets_its_targets_on_a_fixed_corpus()
    {
        var corpus = CorpusGenerator.Generate(120, 2024);
        var report = CorpusEvaluator.Evaluate(corpus);
        output.WriteLine(report.ToString());
        foreach (var mode in new[] { report.Retrospective, report.Online! })
        {
            Assert.True(mode.FalseAlarmsPer1000 <= 1.0, $"false alarms {mode.FalseAlarmsPer1000}");
            Assert.True(mode.Recall10 >= 0.9, $"recall {mode.Recall10}");
        }
        Assert.True(report.Online!.Precision >= report.Retrospective.Precision - 0.1);
        Assert.True(report.Online.MedianDelay <= 10);
    }

    [Fact]
    public void Evaluation_counts_matches_within_the_tolerance()
    {
        var series = new LabelledSeries("x", ChangePointDetectorTests.Series(new Random(1), 200, 0.02, (120, 1.15)),
            [new TrueChange(120, 1.15)], 0.02, NoiseKind.Independent, 0, false, false);
        var report = CorpusEvaluator.Evaluate([series]);
        Assert.Equal(1, report.Retrospective.TruePositives);
        Assert.Equal(0, report.Retrospective.FalsePositives);
        Assert.Equal(1.0, report.Online!.Recall);
        // The same detection against a truth 6 points away (beyond ±5) is a miss and a false alarm.
        var shifted = series with { Changes = [new TrueChange(126, 1.15)] };
        var miss = CorpusEvaluator.Evaluate([shifted], online: false);
        Assert.Equal(0, miss.Retrospective.TruePositives);
        Assert.Equal(1, miss.Retrospective.FalsePositives);
    }
}
