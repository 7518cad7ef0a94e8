using System.Diagnostics;

namespace Rivulet;

public enum Backoff
{
    Constant,
    Exponential,
    /// <summary>Exponential with "full jitter": a random delay between 0 and the exponential one.</summary>
    ExponentialJitter,
}

/// <summary>Retry transient failures up to <see cref="MaxRetries"/> times.</summary>
public sealed class RetryPolicy
{
    public int MaxRetries { get; init; } = 3;
    public TimeSpan BaseDelay { get; init; } = TimeSpan.FromMilliseconds(1);
    public Backoff Backoff { get; init; } = Backoff.Exponential;
    /// <summary>Which failures are worth retrying; all but cancellation by default.</summary>
    public Func<Exception, bool> IsTransient { get; init; } = static e => e is not OperationCanceledException;

    public TimeSpan DelayFor(int attempt)
    {
        var factor = Backoff == Backoff.Constant ? 1 : Math.Pow(2, attempt - 1);
        var delay = BaseDelay.TotalMilliseconds * factor;
        if (Backoff == Backoff.ExponentialJitter) delay *= Random.Shared.NextDouble();
        return TimeSpan.FromMilliseconds(delay);
    }
}

/// <summary>
/// A token bucket: <see cref="Burst"/> tokens at most, refilled at <see cref="RatePerSecond"/>. A caller that
/// finds the bucket empty reserves a future token (the count goes negative) and waits until it is due, so waiters
/// are served in order without a queue.
/// </summary>
public sealed class TokenBucket
{
    private readonly Lock _gate = new();
    private double _tokens;
    private long _lastRefill;

    public TokenBucket(double ratePerSecond, double burst)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ratePerSecond);
        ArgumentOutOfRangeException.ThrowIfLessThan(burst, 1);
        RatePerSecond = ratePerSecond;
        Burst = burst;
        _tokens = burst;
        _lastRefill = Stopwatch.GetTimestamp();
    }

    public double RatePerSecond { get; }
    public double Burst { get; }

    public ValueTask AcquireAsync(CancellationToken cancellationToken = default)
    {
        double wait;
        lock (_gate)
        {
            var now = Stopwatch.GetTimestamp();
            var elapsed = (now - _lastRefill) / (double)Stopwatch.Frequency;
            _lastRefill = now;
            _tokens = Math.Min(Burst, _tokens + elapsed * RatePerSecond);
            _tokens -= 1;
            if (_tokens >= 0) return ValueTask.CompletedTask;
            wait = -_tokens / RatePerSecond;
        }
        return new ValueTask(Task.Delay(TimeSpan.FromSeconds(wait), cancellationToken));
    }
}

public sealed class CircuitOpenException() : Exception("The circuit breaker is open.");

/// <summary>
/// Opens after <see cref="FailureThreshold"/> consecutive failures; while open, calls fail at once with
/// <see cref="CircuitOpenException"/>; after <see cref="OpenDuration"/> one probe is let through (half-open) and its
/// outcome closes or re-opens the circuit.
/// </summary>
public sealed class CircuitBreaker(int failureThreshold = 5, TimeSpan? openDuration = null)
{
    private const int Closed = 0, Open = 1, HalfOpen = 2;
    private int _state;
    private int _consecutiveFailures;
    private long _openedAt;

    public int FailureThreshold { get; } = failureThreshold;
    public TimeSpan OpenDuration { get; } = openDuration ?? TimeSpan.FromSeconds(1);
    public bool IsOpen => Volatile.Read(ref _state) != Closed;

    public void ThrowIfOpen()
    {
        var state = Volatile.Read(ref _state);
        if (state == Closed) return;
        if (state == Open && Stopwatch.GetElapsedTime(Volatile.Read(ref _openedAt)) >= OpenDuration
            && Interlocked.CompareExchange(ref _state, HalfOpen, Open) == Open)
            return; // this caller is the probe
        throw new CircuitOpenException();
    }

    public void OnSuccess()
    {
        if (Volatile.Read(ref _consecutiveFailures) != 0) Volatile.Write(ref _consecutiveFailures, 0);
        if (Volatile.Read(ref _state) != Closed) Volatile.Write(ref _state, Closed);
    }

    public void OnFailure()
    {
        if (Interlocked.Increment(ref _consecutiveFailures) >= FailureThreshold || Volatile.Read(ref _state) == HalfOpen)
        {
            Volatile.Write(ref _openedAt, Stopwatch.GetTimestamp());
            Volatile.Write(ref _state, Open);
        }
    }
}

/// <summary>Counters and a latency histogram (power-of-two microsecond buckets), updated lock-free.</summary>
public sealed class OperatorMetrics
{
    private long _started, _succeeded, _failed, _retries, _totalTicks;
    private readonly long[] _latencyBuckets = new long[32];

    public long Started => Volatile.Read(ref _started);
    public long Succeeded => Volatile.Read(ref _succeeded);
    public long Failed => Volatile.Read(ref _failed);
    public long Retries => Volatile.Read(ref _retries);
    public TimeSpan MeanLatency => Succeeded == 0 ? TimeSpan.Zero : Stopwatch.GetElapsedTime(0, Volatile.Read(ref _totalTicks) / Succeeded);

    /// <summary>Items whose latency fell in [2^i, 2^(i+1)) µs.</summary>
    public long LatencyBucket(int i) => Volatile.Read(ref _latencyBuckets[i]);

    internal void OnStart() => Interlocked.Increment(ref _started);
    internal void OnRetry() => Interlocked.Increment(ref _retries);
    internal void OnFailure() => Interlocked.Increment(ref _failed);

    internal void OnSuccess(long startTimestamp)
    {
        var ticks = Stopwatch.GetTimestamp() - startTimestamp;
        Interlocked.Increment(ref _succeeded);
        Interlocked.Add(ref _totalTicks, ticks);
        var micros = (ulong)Math.Max(1, ticks * 1_000_000 / Stopwatch.Frequency);
        var bucket = Math.Min(31, 63 - (int)ulong.LeadingZeroCount(micros));
        Interlocked.Increment(ref _latencyBuckets[bucket]);
    }
}
