namespace Rivulet;

/// <summary>What happens to the whole operation when one item fails (after any retries).</summary>
public enum ErrorMode
{
    /// <summary>Cancel the remaining work and throw the first failure.</summary>
    FailFast,
    /// <summary>Finish every item, then throw an <see cref="AggregateException"/> of all failures.</summary>
    CollectAndThrow,
    /// <summary>Finish every item and leave the failed ones out of the result.</summary>
    BestEffort,
}

/// <summary>Options of the bounded-parallel operators. Every "advanced feature" is off (null) by default and
/// costs nothing when off.</summary>
public sealed class RivuletOptions
{
    public static RivuletOptions Default { get; } = new();

    /// <summary>At most this many selector invocations run at once.</summary>
    public int MaxDegreeOfParallelism { get; init; } = Environment.ProcessorCount;

    /// <summary>Results in source order (SelectParallelAsync only); otherwise in completion order.</summary>
    public bool OrderedOutput { get; init; }

    public ErrorMode ErrorMode { get; init; } = ErrorMode.FailFast;

    /// <summary>Retries transient failures with backoff.</summary>
    public RetryPolicy? Retry { get; init; }

    /// <summary>Caps the rate at which items start.</summary>
    public TokenBucket? RateLimit { get; init; }

    /// <summary>Fails fast while the downstream looks broken.</summary>
    public CircuitBreaker? CircuitBreaker { get; init; }

    /// <summary>Receives a snapshot every <see cref="ProgressEvery"/> completed items and at the end.</summary>
    public IProgress<ProgressSnapshot>? Progress { get; init; }

    public int ProgressEvery { get; init; } = 100;

    /// <summary>Counts items, retries and failures, and records per-item latency.</summary>
    public OperatorMetrics? Metrics { get; init; }

    internal bool HasAdvancedFeatures => Retry is not null || RateLimit is not null || CircuitBreaker is not null || Progress is not null || Metrics is not null;
}

public readonly record struct ProgressSnapshot(long Completed, long Failed, long Total, TimeSpan Elapsed);
