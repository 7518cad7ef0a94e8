using PerfService.Core.Comparison;

namespace PerfService.Core.ChangePoints;

/// <summary>
/// What one series' consecutive updates can carry from one to the next (<see cref="OnlineDetector.Add"/>): the
/// log-values of the points the detector keeps, and their lag-k differences kept sorted. An update moves the kept
/// points by one (one in, at most one out), so the noise estimate costs a binary search and a short move per lag instead
/// of selecting the trimmed differences afresh, which was most of the detector's CPU in the service
/// (docs/measurements/2026-11-27-analysis-speed.md). Each lag's trimmed sum is kept too, in the fixed point of
/// <see cref="StatMath.FixedSum"/>: a difference entering or leaving the kept ones adds or takes its own value, and
/// integer sums are exact, so summing the kept differences afresh after every update is not needed. It gives exactly
/// the estimate <see cref="SeriesNoise.Estimate"/> gives (the scales are sums that do not depend on order), so feeding
/// with or without one decides the same.
/// One instance per series and thread: it follows the states it was given, and starts afresh on any other. Starting
/// sorts every lag's differences, which costs a few plain estimates: worth it for a run of updates, not for one.
/// The kept values of the states it makes live in two buffers it reuses in turn (<see cref="NextRecent"/>), so a run
/// of updates does not allocate and clear an array per point: of the states made through one window, only the
/// newest may be kept (a batch or a replay keeps its last state only).
/// </summary>
public sealed class NoiseWindow
{
    private const int Lags = SeriesNoise.LongestLag;
    private double[]? _recent; // the kept values the window holds, as the last update left them
    private double[] _y = [];
    private int _n;
    private readonly double[][] _sorted = new double[Lags + 1][];
    private readonly int[] _kept = new int[Lags + 1]; // how many of lag k's smallest differences the scale keeps
    private readonly long[] _keptSum = new long[Lags + 1]; // their sum, in fixed point
    private readonly double[]?[] _buffers = new double[]?[2]; // the kept values of the newest state and the one before

    internal SeriesNoise Noise { get; private set; }

    /// <summary>Forgets every state this window followed, as a new window would, and keeps its arrays for the next
    /// series: a window per thread, restarted for each series, allocates its lags' arrays once instead of once per
    /// series of every batch.</summary>
    public void Restart()
    {
        _recent = null;
        _n = 0;
        _buffers[0] = _buffers[1] = null;
    }

    /// <summary>The log-values of <paramref name="recent"/>, the values kept after an update whose state before held
    /// <paramref name="previous"/>; <see cref="Noise"/> is their estimate.</summary>
    internal ReadOnlySpan<double> Advance(double[] previous, double[] recent)
    {
        var oneIn = recent.Length == previous.Length + 1;
        var oneInOneOut = recent.Length == previous.Length && previous.Length > 0;
        if (!ReferenceEquals(previous, _recent) || _n != previous.Length || !(oneIn || oneInOneOut))
            Fill(recent);
        else
        {
            if (oneInOneOut)
                DropFirst();
            Append(StepScanner.Log(recent[^1]));
        }
        _recent = recent;
        Noise = SeriesNoise.FromKeptSums(_n, _keptSum);
        return _y.AsSpan(0, _n);
    }

    /// <summary>An array of <paramref name="length"/> for the kept values of the state after the one that holds
    /// <paramref name="previous"/>. When that state was made through this window, its predecessor's buffer is free and
    /// is reused if it has that length (a full history always does); any other state drops both buffers, so a state
    /// made elsewhere, or the newest one before a switch to another series, is never written to.</summary>
    internal double[] NextRecent(double[] previous, int length)
    {
        int free;
        if (ReferenceEquals(previous, _buffers[0]))
            free = 1;
        else if (ReferenceEquals(previous, _buffers[1]))
            free = 0;
        else
            (free, _buffers[0], _buffers[1]) = (0, null, null);
        if (_buffers[free]?.Length != length)
            _buffers[free] = new double[length];
        return _buffers[free]!;
    }

    private void Fill(double[] recent)
    {
        _n = recent.Length;
        Grow(_n);
        for (var i = 0; i < _n; i++)
            _y[i] = StepScanner.Log(recent[i]);
        for (var k = 1; k <= Lags; k++)
        {
            (_kept[k], _keptSum[k]) = (0, 0);
            if (k >= _n)
                continue;
            for (var i = 0; i + k < _n; i++)
                _sorted[k][i] = Math.Abs(_y[i + k] - _y[i]);
            Array.Sort(_sorted[k], 0, _n - k);
            Retarget(k, _n - k);
        }
    }

    private void Append(double y)
    {
        Grow(_n + 1);
        _y[_n++] = y;
        for (var k = 1; k <= Lags && k < _n; k++)
        {
            var (sorted, count, d) = (_sorted[k], _n - k, Math.Abs(y - _y[_n - 1 - k]));
            var at = SortedWindow.Insert(sorted, count - 1, d);
            if (at < _kept[k]) // d is kept, and the largest kept one is pushed out of the kept part
                _keptSum[k] += StatMath.ToFixed(d) - StatMath.ToFixed(sorted[_kept[k]]);
            Retarget(k, count);
        }
    }

    private void DropFirst()
    {
        for (var k = 1; k <= Lags && k < _n; k++)
        {
            var (sorted, count) = (_sorted[k], _n - k);
            var at = SortedWindow.IndexOf(sorted.AsSpan(0, count), Math.Abs(_y[k] - _y[0]));
            if (at < _kept[k]) // a kept one leaves, and the smallest of the rest moves into the kept part
                _keptSum[k] += (_kept[k] < count ? StatMath.ToFixed(sorted[_kept[k]]) : 0) - StatMath.ToFixed(sorted[at]);
            SortedWindow.RemoveAt(sorted, count, at);
            Retarget(k, count - 1);
        }
        Array.Copy(_y, 1, _y, 0, _n - 1);
        _n--;
    }

    private void Grow(int n)
    {
        if (_y.Length >= n)
            return;
        var capacity = Math.Max(n, 2 * _y.Length);
        Array.Resize(ref _y, capacity);
        for (var k = 1; k <= Lags; k++)
            Array.Resize(ref _sorted[k], capacity);
    }

    // Moves lag k's kept part to as many of its m differences as the scale keeps.
    private void Retarget(int k, int m)
    {
        var target = m < 2 ? m : SeriesNoise.Kept(m, k);
        var sorted = _sorted[k];
        while (_kept[k] < target)
            _keptSum[k] += StatMath.ToFixed(sorted[_kept[k]++]);
        while (_kept[k] > target)
            _keptSum[k] -= StatMath.ToFixed(sorted[--_kept[k]]);
    }
}
