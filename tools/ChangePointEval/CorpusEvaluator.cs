using PerfService.Core.ChangePoints;

namespace PerfService.ChangePointEval;

/// <summary>
/// Scores a detector on a labelled corpus, retrospectively (<see cref="ChangePointDetector.Detect"/>) and online
/// (<see cref="OnlineDetector.Replay"/>).
/// Matching: a detection is a true positive when it is within ±<see cref="Tolerance"/> points of a true change with
/// the same direction; each true change matches at most one detection (nearest first), so duplicates are false
/// positives. False alarms per 1,000 points are counted on the series with no change at all, so that a detection
/// near a real change in the wrong place never counts as a false alarm of an unchanged benchmark.
/// Online: precision and false alarms count every alert ever raised, including later withdrawn ones (the user saw
/// them); recall counts true changes matched by an alert still standing at the end; the delay of a matched alert is
/// DetectedAt − true index (points that arrived after the change's first point before it was raised).
/// </summary>
public static class CorpusEvaluator
{
    public const int Tolerance = 3;

    public static EvaluationReport Evaluate(IReadOnlyList<LabelledSeries> corpus, ChangePointOptions? options = null, bool online = true)
    {
        options ??= ChangePointOptions.Default;
        var retro = new CorpusTally();
        var live = new CorpusTally();
        var points = 0;
        foreach (var series in corpus)
        {
            points += series.Values.Length;
            var found = ChangePointDetector.Detect(series.Values, options);
            var detections = new List<Detection>(found.Count);
            foreach (var cp in found) detections.Add(new Detection(cp.Index, IsUp(cp.Direction, options), -1));
            retro.Add(series, detections, detections);
            if (!online) continue;
            var alerts = OnlineDetector.Replay(series.Values, options);
            var all = new List<Detection>(alerts.Count);
            var standing = new List<Detection>(alerts.Count);
            foreach (var a in alerts)
            {
                var d = new Detection(a.Index, IsUp(a.Direction, options), a.DetectedAt);
                all.Add(d);
                if (a.WithdrawnAt is null) standing.Add(d);
                else live.Withdrawn++;
            }
            live.Add(series, all, standing);
        }
        return new EvaluationReport(corpus.Count, points, retro.Truths, retro.Report(), online ? live.Report() : null);
    }

    private static bool IsUp(ChangeDirection d, ChangePointOptions o) => (d == ChangeDirection.Regression) == o.LowerIsBetter;
}

internal readonly record struct Detection(int Index, bool Up, int DetectedAt);
