namespace PerfService.Core.ChangePoints;

/// <summary>
/// What one series' consecutive updates can carry from one to the next (<see cref="OnlineDetector.Add"/>): the
/// log-values of the points the detector keeps, and their lag-k differences kept sorted. An update moves the kept
/// points by one (one in, at most one out), so the noise estimate costs a binary search and a short move per lag instead
/// of selecting the trimmed differences afresh, which was most of the detector's CPU in the service
/// (docs/measurements/2026-11-27-analysis-speed.md). It gives exactly the estimate <see cref="SeriesNoise.Estimate"/>
/// gives (the scales are sums that do not depend on order), so feeding with or without one decides the same.
/// One instance per series and thread: it follows the states it was given, and starts afresh on any other. Starting
/// sorts every lag's differences, which costs a few plain estimates: worth it for a run of updates, not for one.
/// </summary>
public sealed class NoiseWindow
{
    private const int Lags = SeriesNoise.LongestLag;
    private double[]? _recent; // the kept values the window holds, as the last update left them
    private double[] _y = [];
    private int _n;
    private readonly double[][] _sorted = new double[Lags + 1][];

    internal SeriesNoise Noise { get; private set; }

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
        Noise = SeriesNoise.FromSorted(_n, _sorted);
        return _y.AsSpan(0, _n);
    }

    private void Fill(double[] recent)
    {
        _n = recent.Length;
        Grow(_n);
        for (var i = 0; i < _n; i++)
            _y[i] = StepScanner.Log(recent[i]);
        for (var k = 1; k <= Lags && k < _n; k++)
        {
            for (var i = 0; i + k < _n; i++)
                _sorted[k][i] = Math.Abs(_y[i + k] - _y[i]);
            Array.Sort(_sorted[k], 0, _n - k);
        }
    }

    private void Append(double y)
    {
        Grow(_n + 1);
        _y[_n++] = y;
        for (var k = 1; k <= Lags && k < _n; k++)
            Insert(_sorted[k], _n - 1 - k, Math.Abs(y - _y[_n - 1 - k]));
    }

    private void DropFirst()
    {
        for (var k = 1; k <= Lags && k < _n; k++)
            Remove(_sorted[k], _n - k, Math.Abs(_y[k] - _y[0]));
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

    // sorted[..count] is in order; the value goes where it keeps it so.
    private static void Insert(double[] sorted, int count, double value)
    {
        var at = Array.BinarySearch(sorted, 0, count, value);
        if (at < 0)
            at = ~at;
        Array.Copy(sorted, at, sorted, at + 1, count - at);
        sorted[at] = value;
    }

    private static void Remove(double[] sorted, int count, double value)
    {
        var at = Array.BinarySearch(sorted, 0, count, value);
        if (at < 0)
            throw new InvalidOperationException("a kept difference was not found: the window lost track of its points");
        Array.Copy(sorted, at + 1, sorted, at, count - at - 1);
    }
}
