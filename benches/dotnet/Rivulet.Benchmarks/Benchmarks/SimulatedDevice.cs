using System.Diagnostics;
using PerfBenches.Shared;

namespace Rivulet.Benchmarks;

/// <summary>
/// Simulated I/O with a precise, fixed latency. Why not <c>Task.Delay(1)</c>: .NET's timer queue runs on
/// Environment.TickCount64, which on Linux reads CLOCK_MONOTONIC_COARSE and so advances in kernel ticks (4 ms on this
/// HZ=250 machine). A 1 ms delay then takes 1-4 ms depending on phase, which makes bounded-parallel timings lumpy
/// (±10 %) and hides the overheads these benchmarks compare. Here one "device" thread completes requests in arrival
/// order when their latency has elapsed, sleeping with nanosleep (precise to the kernel's timer slack, ~50 µs) in
/// between; continuations run on the thread pool, as they would after real I/O. No CPU is burnt while waiting.
/// </summary>
public sealed class SimulatedDevice : IDisposable
{
    private static readonly Lazy<SimulatedDevice> _shared = new(() => new SimulatedDevice(TimeSpan.FromMilliseconds(1)));
    private static readonly Lazy<SimulatedDevice> _slow = new(() => new SimulatedDevice(TimeSpan.FromMilliseconds(2)));

    /// <summary>The 1 ms device the benchmarks share.</summary>
    public static SimulatedDevice Shared => _shared.Value;

    /// <summary>A 2 ms device (the advanced-features benchmarks, as in the seed).</summary>
    public static SimulatedDevice Slow => _slow.Value;

    /// <summary>Requests due within this window are completed together instead of sleeping again.</summary>
    private static readonly long _batchWindow = Stopwatch.Frequency / 20_000; // 50 µs

    private readonly long _latency;
    private readonly Queue<(long Due, TaskCompletionSource Done)> _queue = new();
    private readonly object _gate = new();
    private readonly Thread _thread;
    private readonly List<TaskCompletionSource> _batch = [];
    private bool _stopping;

    public SimulatedDevice(TimeSpan latency)
    {
        _latency = (long)(latency.TotalSeconds * Stopwatch.Frequency);
        _thread = new Thread(Run) { IsBackground = true, Name = "simulated-io-device", Priority = ThreadPriority.AboveNormal };
        _thread.Start();
    }

    public TimeSpan Latency => TimeSpan.FromSeconds(_latency / (double)Stopwatch.Frequency);

    /// <summary>A request: completes after the device's latency. Requests are never cancelled once issued, like
    /// a write already handed to a disk.</summary>
    public Task RequestAsync()
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_gate)
        {
            _queue.Enqueue((Stopwatch.GetTimestamp() + _latency, done));
            if (_queue.Count == 1) Monitor.Pulse(_gate);
        }
        return done.Task;
    }

    private void Run()
    {
        while (true)
        {
            long due;
            lock (_gate)
            {
                while (_queue.Count == 0 && !_stopping) Monitor.Wait(_gate);
                if (_stopping) return;
                due = _queue.Peek().Due;
            }
            var now = Stopwatch.GetTimestamp();
            if (due - now > _batchWindow)
            {
                PreciseSleep.For(due - now); // an early wake-up (EINTR) just loops
                continue;
            }
            lock (_gate)
            {
                while (_queue.Count > 0 && _queue.Peek().Due <= now + _batchWindow) _batch.Add(_queue.Dequeue().Done);
            }
            foreach (var done in _batch) done.TrySetResult();
            _batch.Clear();
        }
    }

    public void Dispose()
    {
        lock (_gate)
        {
            _stopping = true;
            Monitor.Pulse(_gate);
        }
        _thread.Join();
    }
}
