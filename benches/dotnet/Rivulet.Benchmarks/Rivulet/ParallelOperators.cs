using System.Collections.Concurrent;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using System.Threading.Channels;

namespace Rivulet;

/// <summary>
/// Bounded-parallel async operators over a sequence: a fixed set of <c>MaxDegreeOfParallelism</c> workers pulls items
/// from a shared cursor, so at most that many selector calls are in flight, with none of the per-item task
/// explosion of <c>Task.WhenAll(source.Select(...))</c>.
/// </summary>
public static class ParallelOperators
{
    /// <summary>Projects every item through <paramref name="selector"/>, at most MaxDegreeOfParallelism at a time.</summary>
    public static async Task<List<TResult>> SelectParallelAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        RivuletOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(selector);
        options ??= RivuletOptions.Default;
        var items = source as IReadOnlyList<TSource> ?? source.ToList();
        var runner = new ItemRunner<TSource, TResult>(selector, options, items.Count);
        var degree = Math.Clamp(options.MaxDegreeOfParallelism, 1, Math.Max(1, items.Count));

        var ordered = options.OrderedOutput;
        var results = ordered ? new TResult[items.Count] : null;
        var succeeded = ordered && options.ErrorMode == ErrorMode.BestEffort ? new bool[items.Count] : null;
        var perWorker = ordered ? null : new List<TResult>[degree];
        var errors = new ConcurrentQueue<Exception>();
        using var cts = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var next = -1;

        var workers = new Task[degree];
        for (var w = 0; w < degree; w++)
        {
            var local = perWorker is null ? null : (perWorker[w] = new List<TResult>(items.Count / degree + 1));
            workers[w] = Task.Run(async () =>
            {
                int i;
                while ((i = Interlocked.Increment(ref next)) < items.Count && !cts.IsCancellationRequested)
                {
                    TResult value;
                    try
                    {
                        value = await runner.InvokeAsync(items[i], cts.Token).ConfigureAwait(false);
                    }
                    catch (Exception e)
                    {
                        if (!Record(e, options.ErrorMode, errors, cts, cancellationToken)) break;
                        continue;
                    }
                    if (results is not null)
                    {
                        results[i] = value;
                        if (succeeded is not null) succeeded[i] = true;
                    }
                    else
                    {
                        local!.Add(value);
                    }
                }
            }, CancellationToken.None);
        }
        await Task.WhenAll(workers).ConfigureAwait(false);
        runner.ReportFinal();
        ThrowIfFailed(errors, options.ErrorMode, cancellationToken);

        if (results is not null)
        {
            if (succeeded is null) return [.. results];
            var kept = new List<TResult>(items.Count);
            for (var i = 0; i < results.Length; i++)
                if (succeeded[i]) kept.Add(results[i]);
            return kept;
        }
        var all = new List<TResult>(items.Count);
        foreach (var list in perWorker!) all.AddRange(list);
        return all;
    }

    /// <summary>Runs <paramref name="action"/> for every item, at most MaxDegreeOfParallelism at a time.</summary>
    public static Task ForEachParallelAsync<TSource>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask> action,
        RivuletOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(action);
        var unordered = options is { OrderedOutput: true } ? CopyUnordered(options) : options;
        return source.SelectParallelAsync<TSource, bool>(async (item, ct) =>
        {
            await action(item, ct).ConfigureAwait(false);
            return true;
        }, unordered, cancellationToken);
    }

    /// <summary>
    /// Streams results in completion order as they are produced; the source is read lazily, and a bounded channel
    /// (twice the degree) holds results the consumer has not taken yet.
    /// </summary>
    public static async IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, ValueTask<TResult>> selector,
        RivuletOptions? options = null,
        [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(selector);
        options ??= RivuletOptions.Default;
        var runner = new ItemRunner<TSource, TResult>(selector, options, source.TryGetNonEnumeratedCount(out var n) ? n : -1);
        var degree = Math.Max(1, options.MaxDegreeOfParallelism);
        var channel = Channel.CreateBounded<TResult>(new BoundedChannelOptions(degree * 2) { SingleReader = true });
        var errors = new ConcurrentQueue<Exception>();
        using var cts = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        using var enumerator = source.GetEnumerator();
        var gate = new Lock();

        var workers = new Task[degree];
        for (var w = 0; w < degree; w++)
        {
            workers[w] = Task.Run(async () =>
            {
                while (!cts.IsCancellationRequested)
                {
                    TSource item;
                    lock (gate)
                    {
                        if (!enumerator.MoveNext()) return;
                        item = enumerator.Current;
                    }
                    try
                    {
                        var value = await runner.InvokeAsync(item, cts.Token).ConfigureAwait(false);
                        await channel.Writer.WriteAsync(value, cts.Token).ConfigureAwait(false);
                    }
                    catch (Exception e)
                    {
                        if (!Record(e, options.ErrorMode, errors, cts, cancellationToken)) return;
                    }
                }
            }, CancellationToken.None);
        }
        var completion = Task.WhenAll(workers).ContinueWith(
            _ => channel.Writer.TryComplete(), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        try
        {
            await foreach (var value in channel.Reader.ReadAllAsync(cancellationToken).ConfigureAwait(false))
                yield return value;
        }
        finally
        {
            cts.Cancel(); // the consumer stopped early or everything is done: release blocked writers
            await completion.ConfigureAwait(false);
        }
        runner.ReportFinal();
        ThrowIfFailed(errors, options.ErrorMode, cancellationToken);
    }

    /// <summary>Records a failed item; returns false when the worker should stop.</summary>
    private static bool Record(Exception e, ErrorMode mode, ConcurrentQueue<Exception> errors, CancellationTokenSource cts, CancellationToken caller)
    {
        if (e is OperationCanceledException && (caller.IsCancellationRequested || cts.IsCancellationRequested)) return false;
        errors.Enqueue(e);
        if (mode != ErrorMode.FailFast) return true;
        cts.Cancel();
        return false;
    }

    private static void ThrowIfFailed(ConcurrentQueue<Exception> errors, ErrorMode mode, CancellationToken caller)
    {
        caller.ThrowIfCancellationRequested();
        if (errors.IsEmpty || mode == ErrorMode.BestEffort) return;
        if (mode == ErrorMode.FailFast && errors.TryPeek(out var first)) ExceptionDispatchInfo.Throw(first);
        throw new AggregateException(errors);
    }

    private static RivuletOptions CopyUnordered(RivuletOptions o) => new()
    {
        MaxDegreeOfParallelism = o.MaxDegreeOfParallelism,
        OrderedOutput = false,
        ErrorMode = o.ErrorMode,
        Retry = o.Retry,
        RateLimit = o.RateLimit,
        CircuitBreaker = o.CircuitBreaker,
        Progress = o.Progress,
        ProgressEvery = o.ProgressEvery,
        Metrics = o.Metrics,
    };
}

/// <summary>Calls the selector for one item, through whichever advanced features are configured.</summary>
internal sealed class ItemRunner<TSource, TResult>(
    Func<TSource, CancellationToken, ValueTask<TResult>> selector, RivuletOptions options, int total)
{
    private readonly bool _plain = !options.HasAdvancedFeatures;
    private readonly long _started = Stopwatch.GetTimestamp();
    private long _completed, _failed;

    public ValueTask<TResult> InvokeAsync(TSource item, CancellationToken ct) =>
        _plain ? selector(item, ct) : InvokeWithFeaturesAsync(item, ct);

    private async ValueTask<TResult> InvokeWithFeaturesAsync(TSource item, CancellationToken ct)
    {
        var metrics = options.Metrics;
        var breaker = options.CircuitBreaker;
        var start = Stopwatch.GetTimestamp();
        metrics?.OnStart();
        for (var attempt = 0; ; attempt++)
        {
            try
            {
                if (options.RateLimit is { } bucket) await bucket.AcquireAsync(ct).ConfigureAwait(false);
                breaker?.ThrowIfOpen();
                var value = await selector(item, ct).ConfigureAwait(false);
                breaker?.OnSuccess();
                metrics?.OnSuccess(start);
                Completed(failed: false);
                return value;
            }
            catch (Exception e) when (e is not OperationCanceledException || !ct.IsCancellationRequested)
            {
                if (e is not CircuitOpenException) breaker?.OnFailure();
                if (options.Retry is { } retry && attempt < retry.MaxRetries && e is not CircuitOpenException && retry.IsTransient(e))
                {
                    metrics?.OnRetry();
                    await Task.Delay(retry.DelayFor(attempt + 1), ct).ConfigureAwait(false);
                    continue;
                }
                metrics?.OnFailure();
                Completed(failed: true);
                throw;
            }
        }
    }

    private void Completed(bool failed)
    {
        if (failed) Interlocked.Increment(ref _failed);
        var done = Interlocked.Increment(ref _completed);
        if (options.Progress is { } progress && done % Math.Max(1, options.ProgressEvery) == 0)
            progress.Report(Snapshot(done));
    }

    public void ReportFinal()
    {
        if (options.Progress is { } progress) progress.Report(Snapshot(Volatile.Read(ref _completed)));
    }

    private ProgressSnapshot Snapshot(long done) =>
        new(done, Volatile.Read(ref _failed), total, Stopwatch.GetElapsedTime(_started));
}
