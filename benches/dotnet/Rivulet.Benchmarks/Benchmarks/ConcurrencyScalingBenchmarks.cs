using BenchmarkDotNet.Attributes;
using PerfBenches.Shared;

namespace Rivulet.Benchmarks;

/// <summary>
/// How the bounded operator scales with MaxDegreeOfParallelism on I/O-bound work (200 items x 1 ms): ideally the
/// time halves with each doubling until the degree reaches the item count.
/// Full series 1..128; a quick run (--quick) measures 1, 4, 16 and 64.
/// </summary>
[MemoryDiagnoser]
[JsonExporterAttribute.Full]
public class ConcurrencyScalingBenchmarks
{
    private static readonly Type Self = typeof(ConcurrencyScalingBenchmarks);
    private int[] _items = [];
    private RivuletOptions _options = RivuletOptions.Default;

    public static IEnumerable<int> Degrees() => BenchRunner.Quick ? [1, 4, 16, 64] : [1, 2, 4, 8, 16, 32, 64, 128];

    [ParamsSource(nameof(Degrees))]
    public int Degree { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _items = Workload.Items();
        _options = new RivuletOptions { MaxDegreeOfParallelism = Degree };
    }

    [Benchmark]
    public async Task<int> SelectParallelScaling()
    {
        var slow = Slowdown.Start(Self, nameof(SelectParallelScaling));
        var results = await _items.SelectParallelAsync(Workload.SimulatedIoAsync, _options);
        slow.Stretch();
        return results.Count;
    }
}
