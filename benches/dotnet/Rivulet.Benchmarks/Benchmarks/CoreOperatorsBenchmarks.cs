using BenchmarkDotNet.Attributes;
using PerfBenches.Shared;

namespace Rivulet.Benchmarks;

/// <summary>
/// The core operators on 200 items of 1 ms simulated I/O with MaxDegreeOfParallelism = 16, against the two
/// baselines: sequential awaiting (the floor a bounded operator must beat) and unbounded Task.WhenAll (the ceiling:
/// everything in flight at once).
/// </summary>
[MemoryDiagnoser]
[JsonExporterAttribute.Full]
public class CoreOperatorsBenchmarks
{
    private static readonly Type Self = typeof(CoreOperatorsBenchmarks);
    private int[] _items = [];
    private readonly RivuletOptions _unordered = new() { MaxDegreeOfParallelism = Workload.Degree };
    private readonly RivuletOptions _ordered = new() { MaxDegreeOfParallelism = Workload.Degree, OrderedOutput = true };

    [GlobalSetup]
    public void Setup() => _items = Workload.Items();

    [Benchmark(Baseline = true)]
    public async Task<int> Sequential()
    {
        var slow = Slowdown.Start(Self, nameof(Sequential));
        var sum = 0;
        foreach (var item in _items) sum += await Workload.SimulatedIoAsync(item, CancellationToken.None);
        slow.Stretch();
        return sum;
    }

    [Benchmark]
    public async Task<int> WhenAllUnbounded()
    {
        var slow = Slowdown.Start(Self, nameof(WhenAllUnbounded));
        var results = await Task.WhenAll(_items.Select(i => Workload.SimulatedIoAsync(i, CancellationToken.None).AsTask()));
        slow.Stretch();
        return results.Length;
    }

    [Benchmark]
    public async Task<int> SelectParallelBounded()
    {
        var slow = Slowdown.Start(Self, nameof(SelectParallelBounded));
        var results = await _items.SelectParallelAsync(Workload.SimulatedIoAsync, _unordered);
        slow.Stretch();
        return results.Count;
    }

    [Benchmark]
    public async Task<int> SelectParallelOrdered()
    {
        var slow = Slowdown.Start(Self, nameof(SelectParallelOrdered));
        var results = await _items.SelectParallelAsync(Workload.SimulatedIoAsync, _ordered);
        slow.Stretch();
        return results.Count;
    }

    [Benchmark]
    public async Task<int> SelectParallelStream()
    {
        var slow = Slowdown.Start(Self, nameof(SelectParallelStream));
        var count = 0;
        await foreach (var _ in _items.SelectParallelStreamAsync(Workload.SimulatedIoAsync, _unordered)) count++;
        slow.Stretch();
        return count;
    }

    [Benchmark]
    public async Task<int> ForEachParallel()
    {
        var slow = Slowdown.Start(Self, nameof(ForEachParallel));
        var sum = 0;
        await _items.ForEachParallelAsync(async (item, ct) =>
        {
            var value = await Workload.SimulatedIoAsync(item, ct).ConfigureAwait(false);
            Interlocked.Add(ref sum, value);
        }, _unordered);
        slow.Stretch();
        return sum;
    }

    /// <summary>No I/O: the operator's own overhead per item dominates.</summary>
    [Benchmark]
    public async Task<int> SelectParallelCpuLight()
    {
        var slow = Slowdown.Start(Self, nameof(SelectParallelCpuLight));
        var results = await _items.SelectParallelAsync(Workload.CpuLight, _unordered);
        slow.Stretch();
        return results.Count;
    }
}
