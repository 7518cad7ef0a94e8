using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Microsoft.Extensions.Options;
using PerfService.Background;
using PerfService.Core.Pacing;
using PerfService.Hosting.Telemetry;

namespace PerfService.Analysis;

/// <summary>
/// Analysis yields the CPU to uploads in a process that serves both (<see cref="AnalysisPace"/> decides): it listens
/// to this process's own upload times (<see cref="PerfTelemetry.IngestDuration"/>) over the last few seconds, pauses
/// between batches while their slow end is above <see cref="BackgroundOptions.YieldAboveIngestMs"/>, and feeds the
/// detector on one thread meanwhile. A process with only the background role sees no uploads and never pauses: there,
/// the operating system's priority does the same (deploy/ runs that role niced). Thread priorities would not: .NET
/// ignores <c>Thread.Priority</c> on Linux, and analysis runs on pool threads between its awaits anyway.
/// </summary>
public sealed class AnalysisYield : IDisposable
{
    private static readonly TimeSpan Window = TimeSpan.FromSeconds(5);
    private readonly ConcurrentQueue<(long At, TimeSpan Took)> _uploads = new();
    private readonly MeterListener _listener = new();
    private readonly TimeProvider _time;
    private readonly PaceOptions _options;
    private readonly object _gate = new();
    private Pace _pace = Pace.Free;
    private bool _behind;

    public AnalysisYield(IOptions<BackgroundOptions> options, TimeProvider time)
        : this(options, time, listen: true) { }

    /// <param name="listen">false: only <see cref="Uploaded"/> feeds it (tests, beside other tests' uploads in the
    /// process).</param>
    internal AnalysisYield(IOptions<BackgroundOptions> options, TimeProvider time, bool listen)
    {
        _time = time;
        _options = new PaceOptions(
            TimeSpan.FromMilliseconds(options.Value.YieldAboveIngestMs),
            TimeSpan.FromMilliseconds(250),
            TimeSpan.FromMilliseconds(options.Value.YieldMaxPauseMs),
            BehindRuns: options.Value.YieldUntilWaitingRuns
        );
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == PerfTelemetry.Name && instrument.Name == PerfTelemetry.IngestDuration)
                listener.EnableMeasurementEvents(instrument);
        };
        _listener.SetMeasurementEventCallback<double>((_, seconds, _, _) => Uploaded(TimeSpan.FromSeconds(seconds)));
        if (listen)
            _listener.Start();
    }

    /// <summary>The pace decided before the last batch.</summary>
    public Pace Current => _pace;

    /// <summary>Whether analysis was behind after the last batch (<see cref="AnalysisPace.Behind"/>).</summary>
    public bool Behind => _behind;

    /// <summary>Detector threads for the next batch: one while yielding, <paramref name="behind"/> while behind,
    /// otherwise <paramref name="keepingPace"/>.</summary>
    public int Threads(int keepingPace, int behind) =>
        _pace.Yielding ? 1
        : _behind ? behind
        : keepingPace;

    /// <summary>An upload's time to parse and store (fed by the listener; public for tests).</summary>
    public void Uploaded(TimeSpan took)
    {
        _uploads.Enqueue((_time.GetTimestamp(), took));
        Trim();
    }

    /// <summary>Decides the pace from the uploads of the last few seconds and the runs the last batch took, and waits
    /// its pause.</summary>
    public async Task WaitAsync(CancellationToken ct, int lastBatchRuns = 0)
    {
        Trim();
        Pace pace;
        lock (_gate)
        {
            _pace = pace = AnalysisPace.Next(_pace, [.. _uploads.Select(u => u.Took)], _options, lastBatchRuns);
            _behind = AnalysisPace.Behind(_options, lastBatchRuns);
        }
        if (pace.Pause > TimeSpan.Zero)
            await Task.Delay(pace.Pause, _time, ct);
    }

    private void Trim()
    {
        while (_uploads.TryPeek(out var oldest) && _time.GetElapsedTime(oldest.At) > Window)
            _uploads.TryDequeue(out _);
    }

    public void Dispose() => _listener.Dispose();
}
