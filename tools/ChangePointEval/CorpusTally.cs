namespace PerfService.ChangePointEval;

/// <summary>The counts behind one <see cref="ModeReport"/>, added series by series.</summary>
internal sealed class CorpusTally
{
    public int Truths, Withdrawn;
    private int _detections, _truePositives, _recalled, _alarms, _quietPoints;
    private int _truths10, _recalled10, _truths30, _recalled30, _within3, _exact;
    private readonly List<int> _delays = [];
    private readonly Dictionary<(string Kind, string Band), Cell> _cells = [];
    private readonly Dictionary<string, (int Recalled, int Truths)> _bySize = [];

    public void Add(LabelledSeries series, List<Detection> raised, List<Detection> standing)
    {
        var truths = series.Changes;
        Truths += truths.Count;
        _detections += raised.Count;
        var matched = Match(truths, raised);
        var fastest = new int[truths.Count];
        Array.Fill(fastest, int.MaxValue);
        for (var d = 0; d < raised.Count; d++)
        {
            if (matched[d] < 0) continue;
            _truePositives++;
            if (raised[d].Index == truths[matched[d]].Index) _exact++;
            if (raised[d].DetectedAt < 0) continue;
            var delay = raised[d].DetectedAt - truths[matched[d]].Index;
            _delays.Add(delay);
            fastest[matched[d]] = delay;
        }
        var band = NoiseBand(series.Noise);
        if (truths.Count == 0)
        {
            _alarms += raised.Count;
            _quietPoints += series.Values.Length;
            foreach (var key in Keys(series)) Bump((key, band), new Cell(raised.Count, series.Values.Length, 0, 0));
        }

        var recalled = new bool[truths.Count];
        foreach (var t in Match(truths, standing)) if (t >= 0) recalled[t] = true;
        for (var t = 0; t < truths.Count; t++)
        {
            var hit = recalled[t] ? 1 : 0;
            _recalled += hit;
            foreach (var key in Keys(series)) Bump((key, band), new Cell(0, 0, hit, 1));
            var bucket = SizeBucket(truths[t].Size);
            var (r, c) = _bySize.GetValueOrDefault(bucket);
            _bySize[bucket] = (r + hit, c + 1);
            if (truths[t].Size >= 0.10 && series.Noise is >= 0.02 and <= 0.06) { _truths10++; _recalled10 += hit; }
            if (truths[t].Size >= 0.30)
            {
                _truths30++;
                _recalled30 += hit;
                if (fastest[t] <= 3) _within3++;
            }
        }
    }

    public ModeReport Report()
    {
        var delays = _delays.ToArray();
        Array.Sort(delays);
        double? median = delays.Length == 0 ? null : delays.Length % 2 == 1 ? delays[delays.Length / 2] : 0.5 * (delays[delays.Length / 2 - 1] + delays[delays.Length / 2]);
        var precision = Ratio(_truePositives, _detections);
        var recall = Ratio(_recalled, Truths);
        var bySize = new SortedDictionary<string, double>(Comparer<string>.Create((a, b) => Lower(a).CompareTo(Lower(b))));
        foreach (var (k, (r, c)) in _bySize) bySize[k] = Ratio(r, c);
        return new ModeReport(_detections, _truePositives, precision, recall,
            precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall),
            _quietPoints == 0 ? 0 : 1000.0 * _alarms / _quietPoints,
            Ratio(_recalled10, _truths10), _truths10, Ratio(_recalled30, _truths30), Ratio(_within3, _truths30), _truths30,
            median, Withdrawn, Ratio(_exact, _truePositives), new SortedDictionary<(string, string), Cell>(_cells), bySize);
    }

    public static readonly string[] Bands = ["0.5-2%", "2-6%", "6-15%"];

    private static string NoiseBand(double noise) => noise < 0.02 ? Bands[0] : noise <= 0.06 ? Bands[1] : Bands[2];

    private static double Ratio(int a, int b) => b == 0 ? 1 : (double)a / b;

    private void Bump((string, string) key, Cell add)
    {
        var c = _cells.GetValueOrDefault(key);
        _cells[key] = new Cell(c.Alarms + add.Alarms, c.QuietPoints + add.QuietPoints, c.Recalled + add.Recalled, c.Truths + add.Truths);
    }

    private static IEnumerable<string> Keys(LabelledSeries s)
    {
        yield return s.Kind.ToString().ToLowerInvariant();
        if (s.Outliers) yield return "outliers";
        if (s.Drift) yield return "drift";
        if (s.Wander) yield return "wander";
        if (s.Quantised) yield return "quantised";
        if (s.MachineMove) yield return "machine move";
    }

    private static string SizeBucket(double size) => size switch
    {
        < 0.05 => "2-5%",
        < 0.10 => "5-10%",
        < 0.20 => "10-20%",
        < 0.30 => "20-30%",
        < 0.50 => "30-50%",
        _ => "50-100%",
    };

    private static int Lower(string bucket) => int.Parse(bucket[..bucket.IndexOf('-')], System.Globalization.CultureInfo.InvariantCulture);

    // For each detection, the index of the true change it matches, or -1. Nearest pairs first.
    private static int[] Match(IReadOnlyList<TrueChange> truths, List<Detection> detections)
    {
        var pairs = new List<(int Distance, int Detection, int Truth)>();
        for (var d = 0; d < detections.Count; d++)
            for (var t = 0; t < truths.Count; t++)
            {
                var distance = Math.Abs(detections[d].Index - truths[t].Index);
                if (distance <= CorpusEvaluator.Tolerance && detections[d].Up == truths[t].Up) pairs.Add((distance, d, t));
            }
        pairs.Sort();
        var result = new int[detections.Count];
        Array.Fill(result, -1);
        var used = new bool[truths.Count];
        foreach (var (_, d, t) in pairs)
            if (result[d] < 0 && !used[t]) { result[d] = t; used[t] = true; }
        return result;
    }
}

/// <summary>One series kind × noise band: false alarms and points of its no-change series, recalled and true changes of the others.</summary>
public readonly record struct Cell(int Alarms, int QuietPoints, int Recalled, int Truths);
