using BenchmarkDotNet.Attributes;
using PerfService.Core.ChangePoints;
using PerfService.Core.Comparison;
using PerfService.Core.Results;

namespace PerfService.Benchmarks;

/// <summary>
/// The engine's budgets: a run of 1,000 benchmarks against 30-run baselines in under 100 ms, and change-point
/// updates of 1,000 series of 500 points in under 2 s; and the cost of storing the states those updates change.
/// </summary>
[Config(typeof(BenchConfig))]
public class ComparisonBenchmarks
{
    private List<ComparisonInput> _inputs = [];
    private OnlineDetectorState[] _states = [];
    private OnlineDetectorState[] _firstDetectorStates = [];
    private double[] _next = [];
    private double[][] _batch = [];
    private byte[][] _stored = [];
    private (OnlineDetectorState State, NoiseWindow Window)[] _kept = [];
    private byte[][] _keptStored = [];
    private int _step;

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(42);
        double[] Samples(double center, int n) => Enumerable.Range(0, n).Select(_ => center * Math.Exp(0.03 * Normal(random))).ToArray();
        _inputs = Enumerable.Range(0, 1000).Select(i =>
        {
            var center = 100 + i;
            var shift = i % 50 == 0 ? 1.1 : 1.0;
            return new ComparisonInput($"Bench{i}", "time", "ns", Direction.LowerIsBetter, Samples(center, 30), Samples(center * shift, 30))
            {
                History = Samples(center, 30),
            };
        }).ToList();

        _states = new OnlineDetectorState[1000];
        _firstDetectorStates = new OnlineDetectorState[1000];
        _next = new double[1000];
        for (var s = 0; s < _states.Length; s++)
        {
            var series = Samples(1000, 500);
            var (state, first) = (OnlineDetectorState.Empty, OnlineDetectorState.Empty);
            foreach (var v in series)
            {
                state = OnlineDetector.Add(state, v).State;
                first = OnlineDetector.Add(first, v, ChangePointOptions.Legacy).State;
            }
            (_states[s], _firstDetectorStates[s]) = (state, first);
            _next[s] = 1000 * Math.Exp(0.03 * Normal(random));
        }
        _stored = _states.Select(OnlineDetectorStateCodec.Encode).ToArray();
        _keptStored = new byte[_states.Length][];
        // A window follows the state it made: one point through a new window (which sorts the differences once).
        _kept = _states.Select((state, s) =>
        {
            var window = new NoiseWindow();
            return (OnlineDetector.Add(state, _next[s], window: window).State, window);
        }).ToArray();
        // A batch of analysis brings each series several new points at once (a project's runs arrive faster than they
        // are analysed); the update feeds them one by one through a NoiseWindow.
        _batch = Enumerable.Range(0, 100).Select(_ => Samples(1000, 50)).ToArray();
    }

    [Benchmark]
    public int Compare1000BenchmarksAgainst30RunBaselines() => RunComparer.Compare(_inputs).Count(v => v.Outcome == Outcome.Regression);

    [Benchmark]
    public int UpdateChangePointsOf1000SeriesOf500Points()
    {
        var raised = 0;
        for (var s = 0; s < _states.Length; s++) raised += OnlineDetector.Add(_states[s], _next[s]).Raised.Count;
        return raised;
    }

    /// <summary>The same update with the first detector's settings: the baseline the detector's cost per fed point is held to.</summary>
    [Benchmark]
    public int UpdateChangePointsOf1000SeriesOf500PointsWithTheFirstDetector()
    {
        var raised = 0;
        for (var s = 0; s < _firstDetectorStates.Length; s++) raised += OnlineDetector.Add(_firstDetectorStates[s], _next[s], ChangePointOptions.Legacy).Raised.Count;
        return raised;
    }

    /// <summary>1,000 series given one point each, every state decoded from its stored bytes and its noise estimated
    /// afresh: an analysis of a run whose series states are not kept in memory (the baseline of the next one).</summary>
    [Benchmark]
    public int AdvanceDecodedStatesOf1000Series()
    {
        var raised = 0;
        for (var s = 0; s < _stored.Length; s++)
        {
            var update = OnlineDetector.Add(OnlineDetectorStateCodec.Decode(_stored[s]), _next[(s + _step) % _next.Length]);
            (_stored[s], raised) = (OnlineDetectorStateCodec.Encode(update.State), raised + update.Raised.Count);
        }
        _step++;
        return raised;
    }

    /// <summary>The same points through the states and noise windows kept in memory (SeriesStateCache): no decoding,
    /// and the noise estimate moved by one point.</summary>
    [Benchmark]
    public int AdvanceKeptStatesOf1000Series()
    {
        var raised = 0;
        for (var s = 0; s < _kept.Length; s++)
        {
            var update = OnlineDetector.Add(_kept[s].State, _next[(s + _step) % _next.Length], window: _kept[s].Window);
            _kept[s] = (update.State, _kept[s].Window);
            (_keptStored[s], raised) = (OnlineDetectorStateCodec.Encode(update.State), raised + update.Raised.Count);
        }
        _step++;
        return raised;
    }

    /// <summary>100 series of 500 points each given 50 more, one by one, as a batch of analysis feeds them.</summary>
    [Benchmark]
    public int FeedFiftyPointsTo100Series() => Feed(null);

    /// <summary>The same with the first detector's settings (the baseline of the cost per fed point).</summary>
    [Benchmark]
    public int FeedFiftyPointsTo100SeriesWithTheFirstDetector() => Feed(ChangePointOptions.Legacy);

    private int Feed(ChangePointOptions? options)
    {
        var raised = 0;
        for (var s = 0; s < _batch.Length; s++)
        {
            var (state, window) = (options is null ? _states[s] : _firstDetectorStates[s], new NoiseWindow());
            foreach (var v in _batch[s])
            {
                var update = OnlineDetector.Add(state, v, options, window);
                (state, raised) = (update.State, raised + update.Raised.Count);
            }
        }
        return raised;
    }

    /// <summary>How detector states were stored before (jsonb): the baseline for <see cref="RoundTripStatesOf1000Series"/>.</summary>
    [Benchmark]
    public int RoundTripStatesOf1000SeriesAsJson()
    {
        var count = 0;
        for (var s = 0; s < _states.Length; s++)
            count += System.Text.Json.JsonSerializer.Deserialize<OnlineDetectorState>(System.Text.Json.JsonSerializer.Serialize(_states[s]))!.Count;
        return count;
    }

    /// <summary>Reading and writing back every state an analysis of 1,000 series touches, in the stored (binary) form.</summary>
    [Benchmark]
    public int RoundTripStatesOf1000Series()
    {
        var count = 0;
        for (var s = 0; s < _states.Length; s++) count += OnlineDetectorStateCodec.Decode(OnlineDetectorStateCodec.Encode(_states[s])).Count;
        return count;
    }

    private static double Normal(Random r) => Math.Sqrt(-2 * Math.Log(1 - r.NextDouble())) * Math.Cos(2 * Math.PI * r.NextDouble());
}
