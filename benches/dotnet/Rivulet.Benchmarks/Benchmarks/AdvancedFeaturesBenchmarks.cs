using BenchmarkDotNet.Attributes;
using PerfBenches.Shared;

namespace Rivulet.Benchmarks;

/// <summary>
/// The cost of the resilience features when they are configured but not triggered (no failures, a rate limit far
/// above the achieved rate): 200 items x 2 ms simulated I/O (the seed's 2 ms), MaxDegreeOfParallelism = 16. The
/// target is that every With* variant stays within 10 % of NoAdvancedFeatures.
/// </summary>
[MemoryDiagnoser]
[JsonExporterAttribute.Full]
public class AdvancedFeaturesBenchmarks
{
    private static readonly Type Self = typeof(AdvancedFeaturesBenchmarks);
    private int[] _items = [];

    private sealed class CountingProgress : IProgress<ProgressSnapshot>
    {
        public long Reports;
        public void Report(ProgressSnapshot value) => Interlocked.Increment(ref Reports);
    }

    private static RivuletOptions Options(
        RetryPolicy? retry = null, CircuitBreaker? breaker = null, TokenBucket? rateLimit = null,
        IProgress<ProgressSnapshot>? progress = null, OperatorMetrics? metrics = null) => new()
    {
        MaxDegreeOfParallelism = Workload.Degree,
        Retry = retry,
        CircuitBreaker = breaker,
        RateLimit = rateLimit,
        Progress = progress,
        ProgressEvery = 10,
        Metrics = metrics,
    };

    private static RetryPolicy Retry() => new() { MaxRetries = 3, BaseDelay = TimeSpan.FromMilliseconds(1), Backoff = Backoff.ExponentialJitter };
    private static CircuitBreaker Breaker() => new(failureThreshold: 5, openDuration: TimeSpan.FromSeconds(1));
    private static TokenBucket Bucket() => new(ratePerSecond: 1_000_000, burst: 1_000);

    [GlobalSetup]
    public void Setup() => _items = Workload.Items();

    private async Task<int> RunAsync(string name, RivuletOptions options)
    {
        var slow = Slowdown.Start(Self, name);
        var results = await _items.SelectParallelAsync(Workload.SlowIoAsync, options);
        slow.Stretch();
        return results.Count;
    }

    [Benchmark(Baseline = true)]
    public Task<int> NoAdvancedFeatures() => RunAsync(nameof(NoAdvancedFeatures), Options());

    [Benchmark]
    public Task<int> WithRetries() => RunAsync(nameof(WithRetries), Options(retry: Retry()));

    [Benchmark]
    public Task<int> WithCircuitBreaker() => RunAsync(nameof(WithCircuitBreaker), Options(breaker: Breaker()));

    [Benchmark]
    public Task<int> WithRateLimit() => RunAsync(nameof(WithRateLimit), Options(rateLimit: Bucket()));

    [Benchmark]
    public Task<int> WithProgress() => RunAsync(nameof(WithProgress), Options(progress: new CountingProgress()));

    [Benchmark]
    public Task<int> WithMetrics() => RunAsync(nameof(WithMetrics), Options(metrics: new OperatorMetrics()));

    [Benchmark]
    public Task<int> WithAllFeatures() => RunAsync(nameof(WithAllFeatures),
        Options(Retry(), Breaker(), Bucket(), new CountingProgress(), new OperatorMetrics()));
}
