using PerfService.Core.ChangePoints;

namespace PerfService.ChangePointEval;

/// <summary>
/// Scores the detector on a labelled corpus, retrospectively (<see cref="ChangePointDetector.Detect"/>) and online
/// (<see cref="OnlineDetector.Replay"/>).
/// Matching: a detection is a true positive when it is within ±<see cref="Tolerance"/> points of a true change with
/// the same direction; each true change matches at most one detection (nearest first), so duplicates are false
/// positives. False alarms per 1,000 unchanged points: false positives farther than the tolerance from every true
/// change, per 1,000 points farther than the tolerance from every true change.
/// Online: precision and false alarms count every alert ever raised, including later withdrawn ones (the user saw
/// them); recall counts true changes matched by an alert still standing at the end; the delay of a matched alert is
/// DetectedAt − true index (points that had to arrive after the change).
/// </summary>
public static class CorpusEvaluator
{
    public const int Tolerance = 5;

    public static EvaluationReport Evaluate(IReadOnlyList<LabelledSeries> corpus, ChangePointOptions? options = null, bool online = true)
    {
        options ??= ChangePointOptions.Default;
        var retro = new Tally();
        var live = new Tally();
        var points = 0;
        foreach (var series in corpus)
        {
            points += series.Values.Length;
            var found = ChangePointDetector.Detect(series.Values, options);
            var detections = new List<(int Index, bool Up, int DetectedAt)>(found.Count);
            foreach (var cp in found) detections.Add((cp.Index, IsUp(cp.Direction, options), -1));
            retro.Add(series, detections, detections);
            if (!online) continue;
            var alerts = OnlineDetector.Replay(series.Values, options);
            var all = new List<(int, bool, int)>(alerts.Count);
            var standing = new List<(int, bool, int)>(alerts.Count);
            foreach (var a in alerts)
            {
                all.Add((a.Index, IsUp(a.Direction, options), a.DetectedAt));
                if (a.WithdrawnAt is null) standing.Add((a.Index, IsUp(a.Direction, options), a.DetectedAt));
                else live.Withdrawn++;
            }
            live.Add(series, all, standing);
        }
        return new EvaluationReport(corpus.Count, points, retro.Truths, retro.Report(), online ? live.Report() : null);
    }

    private static bool IsUp(ChangeDirection d, ChangePointOptions o) => (d == ChangeDirection.Regression) == o.LowerIsBetter;

    private sealed class Tally
    {
        public int Truths, Detections, TruePositives, FalsePositives, FarFalsePositives, Recalled;
        public int TargetTruths, TargetRecalled, UnchangedPoints, Withdrawn;
        public readonly List<int> Delays = [];
        public readonly Dictionary<string, (int Alarms, int Points)> ByKind = [];
        public readonly Dictionary<string, (int Recalled, int Truths)> BySize = [];

        public void Add(LabelledSeries series, List<(int Index, bool Up, int DetectedAt)> raised, List<(int Index, bool Up, int DetectedAt)> standing)
        {
            var truths = series.Changes;
            Truths += truths.Count;
            Detections += raised.Count;
            var matched = Match(truths, raised);
            var tp = 0;
            for (var d = 0; d < raised.Count; d++)
            {
                if (matched[d] >= 0)
                {
                    tp++;
                    if (raised[d].DetectedAt >= 0) Delays.Add(raised[d].DetectedAt - truths[matched[d]].Index);
                    continue;
                }
                var near = false;
                foreach (var t in truths) near |= Math.Abs(t.Index - raised[d].Index) <= Tolerance;
                if (!near) { FarFalsePositives++; Bump(series, 1, 0); }
            }
            TruePositives += tp;
            FalsePositives += raised.Count - tp;

            var recalledBy = Match(truths, standing);
            var recalled = new bool[truths.Count];
            foreach (var t in recalledBy) if (t >= 0) recalled[t] = true;
            for (var t = 0; t < truths.Count; t++)
            {
                if (recalled[t]) Recalled++;
                var bucket = SizeBucket(truths[t].Size);
                var (r, c) = BySize.GetValueOrDefault(bucket);
                BySize[bucket] = (r + (recalled[t] ? 1 : 0), c + 1);
                if (truths[t].Size >= 0.10 && series.Noise <= 0.05)
                {
                    TargetTruths++;
                    if (recalled[t]) TargetRecalled++;
                }
            }
            var unchanged = 0;
            for (var i = 0; i < series.Values.Length; i++)
            {
                var near = false;
                foreach (var t in truths) near |= Math.Abs(t.Index - i) <= Tolerance;
                if (!near) unchanged++;
            }
            UnchangedPoints += unchanged;
            Bump(series, 0, unchanged);
        }

        private static string SizeBucket(double size) => size switch
        {
            < 0.05 => "2-5%",
            < 0.10 => "5-10%",
            < 0.20 => "10-20%",
            < 0.50 => "20-50%",
            _ => "50-100%",
        };

        private void Bump(LabelledSeries s, int alarms, int points)
        {
            foreach (var key in Keys(s))
            {
                var (a, p) = ByKind.GetValueOrDefault(key);
                ByKind[key] = (a + alarms, p + points);
            }
        }

        private static IEnumerable<string> Keys(LabelledSeries s)
        {
            yield return s.Kind.ToString();
            if (s.Drift) yield return "drift";
            if (s.Outliers) yield return "outliers";
            if (s.Changes.Count == 0) yield return "no-change series";
        }

        // For each detection, the index of the true change it matches, or -1. Nearest pairs first.
        private static int[] Match(IReadOnlyList<TrueChange> truths, List<(int Index, bool Up, int DetectedAt)> detections)
        {
            var pairs = new List<(int Distance, int Detection, int Truth)>();
            for (var d = 0; d < detections.Count; d++)
                for (var t = 0; t < truths.Count; t++)
                {
                    var distance = Math.Abs(detections[d].Index - truths[t].Index);
                    if (distance <= Tolerance && detections[d].Up == truths[t].Up) pairs.Add((distance, d, t));
                }
            pairs.Sort();
            var result = new int[detections.Count];
            Array.Fill(result, -1);
            var used = new bool[truths.Count];
            foreach (var (_, d, t) in pairs)
                if (result[d] < 0 && !used[t]) { result[d] = t; used[t] = true; }
            return result;
        }

        public ModeReport Report()
        {
            var delays = Delays.ToArray();
            Array.Sort(delays);
            double? median = delays.Length == 0 ? null : delays.Length % 2 == 1 ? delays[delays.Length / 2] : 0.5 * (delays[delays.Length / 2 - 1] + delays[delays.Length / 2]);
            var byKind = new SortedDictionary<string, double>();
            foreach (var (k, (a, p)) in ByKind) byKind[k] = p == 0 ? 0 : 1000.0 * a / p;
            var bySize = new SortedDictionary<string, double>(Comparer<string>.Create((a, b) => Lower(a).CompareTo(Lower(b))));
            foreach (var (k, (r, c)) in BySize) bySize[k] = c == 0 ? 1 : (double)r / c;
            return new ModeReport(
                Detections, TruePositives, FalsePositives,
                Detections == 0 ? 1 : (double)TruePositives / Detections,
                Truths == 0 ? 1 : (double)Recalled / Truths,
                TargetTruths == 0 ? 1 : (double)TargetRecalled / TargetTruths,
                TargetTruths,
                UnchangedPoints == 0 ? 0 : 1000.0 * FarFalsePositives / UnchangedPoints,
                median, Withdrawn, byKind, bySize);
        }

        private static int Lower(string bucket) => int.Parse(bucket[..bucket.IndexOf('-')], System.Globalization.CultureInfo.InvariantCulture);
    }
}
