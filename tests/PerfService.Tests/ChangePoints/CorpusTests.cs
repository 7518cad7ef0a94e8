using PerfService.Core.ChangePoints;
using PerfService.ChangePointEval;
using Xunit.Abstractions;

namespace PerfService.Tests.ChangePoints;

public class CorpusTests(ITestOutputHelper output)
{
    [Fact]
    public void The_generator_is_deterministic_and_labelled()
    {
        var a = CorpusGenerator.Generate(80, 5);
        var b = CorpusGenerator.Generate(80, 5);
        Assert.Equal(a.Select(s => s.Values.Sum()), b.Select(s => s.Values.Sum()));
        Assert.All(a, s => Assert.InRange(s.Values.Length, 100, 500));
        Assert.All(a, s => Assert.All(s.Values, v => Assert.True(v > 0 && double.IsFinite(v))));
        Assert.Contains(a, s => s.Changes.Count == 0);
        Assert.Contains(a, s => s.Changes.Count > 0);
        Assert.Contains(a, s => s.Kind == NoiseKind.Autocorrelated);
        Assert.Contains(a, s => s.Kind == NoiseKind.Combined && s.Outliers);
        Assert.Contains(a, s => s.Drift);
        Assert.Contains(a, s => s.Wander);
        Assert.Contains(a, s => s.Quantised);
        Assert.Contains(a, s => s.MachineMove);
        Assert.All(a.SelectMany(s => s.Changes), c => Assert.InRange(c.Size, 0.02, 1.0));
        // Changes close together and changes that just landed are part of the corpus.
        Assert.All(a, s => Assert.All(s.Changes.Zip(s.Changes.Skip(1)), p => Assert.True(p.Second.Index - p.First.Index >= CorpusGenerator.MinGap)));
        Assert.All(a, s => Assert.All(s.Changes, c => Assert.True(c.Index <= s.Values.Length - CorpusGenerator.MinTail)));
        Assert.Contains(a, s => s.Changes.Zip(s.Changes.Skip(1)).Any(p => p.Second.Index - p.First.Index < 40));
        Assert.Contains(a, s => s.Changes.Any(c => s.Values.Length - c.Index <= 20));
    }

    [Fact]
    public void The_detector_meets_its_targets_on_a_fixed_corpus()
    {
        var corpus = CorpusGenerator.Generate(120, 2024);
        var report = CorpusEvaluator.Evaluate(corpus);
        var old = CorpusEvaluator.Evaluate(corpus, ChangePointOptions.Legacy);
        output.WriteLine(EvaluationReport.Render([("old", old), ("new", report)]));
        // Online false alarms stay within the first detector's documented bound (1 per 1,000 points); the goal of 0.5
        // is measured on the full corpus by ./perf detect-eval.
        Assert.True(report.Retrospective.FalseAlarmsPer1000 <= Goals.MaxFalseAlarms, $"false alarms {report.Retrospective.FalseAlarmsPer1000}");
        Assert.True(report.Online!.FalseAlarmsPer1000 <= 1.0, $"false alarms {report.Online.FalseAlarmsPer1000}");
        foreach (var mode in new[] { report.Retrospective, report.Online }) Assert.True(mode.Recall10 >= 0.85, $"recall {mode.Recall10}");
        Assert.True(report.Retrospective.Recall > old.Retrospective.Recall, $"recall {report.Retrospective.Recall} against {old.Retrospective.Recall}");
        Assert.True(report.Online!.Recall > old.Online!.Recall, $"recall {report.Online.Recall} against {old.Online.Recall}");
        Assert.True(report.Online.MedianDelay <= 3, $"median delay {report.Online.MedianDelay}");
        Assert.True(old.Online.MedianDelay >= 5, $"median delay {old.Online.MedianDelay} of the first detector");
    }

    [Fact]
    public void Evaluation_counts_matches_within_the_tolerance()
    {
        var series = new LabelledSeries("x", ChangePointDetectorTests.Series(new Random(1), 200, 0.02, (120, 1.15)),
            [new TrueChange(120, 1.15)], 0.02, NoiseKind.Independent, 0, false, false);
        var report = CorpusEvaluator.Evaluate([series]);
        Assert.Equal(1, report.Retrospective.TruePositives);
        Assert.Equal(1, report.Retrospective.Detections);
        Assert.Equal(1.0, report.Online!.Recall);
        Assert.Equal(1.0, report.Retrospective.Exact);
        // A truth two points away still matches, but not at its own point.
        var near = series with { Changes = [new TrueChange(122, 1.15)] };
        var nearReport = CorpusEvaluator.Evaluate([near], online: false).Retrospective;
        Assert.Equal((1, 0.0), (nearReport.TruePositives, nearReport.Exact));
        // The same detection against a truth 4 points away (beyond ±3) is a miss and a false positive; so is a
        // detection in the wrong direction.
        var shifted = series with { Changes = [new TrueChange(124, 1.15)] };
        var miss = CorpusEvaluator.Evaluate([shifted], online: false);
        Assert.Equal((1, 0, 0.0), (miss.Retrospective.Detections, miss.Retrospective.TruePositives, miss.Retrospective.Recall));
        var wrongWay = series with { Changes = [new TrueChange(120, 1 / 1.15)] };
        Assert.Equal(0, CorpusEvaluator.Evaluate([wrongWay], online: false).Retrospective.TruePositives);
        // Only series without any change count towards false alarms per 1,000 points.
        var quiet = series with { Changes = [] };
        Assert.Equal(1000.0 / 200, CorpusEvaluator.Evaluate([quiet], online: false).Retrospective.FalseAlarmsPer1000, 9);
    }
}
