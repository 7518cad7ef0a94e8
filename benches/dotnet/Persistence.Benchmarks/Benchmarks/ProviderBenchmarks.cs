using BenchmarkDotNet.Attributes;
using PerfBenches.Shared;
using Persistence.Benchmarks.Providers;

namespace Persistence.Benchmarks.Benchmarks;

/// <summary>Payload sizes: the value's length in bytes.</summary>
public enum PayloadSize
{
    Small = 100,
    Medium = 1024,
    Large = 10 * 1024,
}

/// <summary>
/// Sequential provider benchmarks after Common.Persistence's ProviderBenchmarks: each operation pattern over
/// <see cref="Operations"/> keys with values of <see cref="Payload"/> size, for every available provider. Each
/// benchmark case starts from a fresh store holding every key (GlobalSetup), and each pattern leaves the store as it
/// found it, so iterations measure the same work.
/// Full run: 1,000 and 10,000 operations, all three payload sizes, 1/2/4/8/16 cores (those the machine has);
/// quick run (--quick): 200 operations, Small and Large payloads (file-system writes dominate a quick run's time),
/// 1 and 2 cores. The process is confined to <see cref="Cores"/> CPUs per case (CoreAffinity).
/// </summary>
[MemoryDiagnoser]
[JsonExporterAttribute.Full]
public class ProviderBenchmarks
{
    private static readonly Type Self = typeof(ProviderBenchmarks);
    private const int BatchSize = 100;

    private IPersistenceProvider _provider = null!;
    private string[] _keys = [];
    private byte[] _payload = [];
    private List<KeyValuePair<string, byte[]>[]> _batches = [];

    public static IEnumerable<string> Providers() => ProviderNames.Available();
    public static IEnumerable<PayloadSize> Payloads() =>
        BenchRunner.Quick ? [PayloadSize.Small, PayloadSize.Large] : [PayloadSize.Small, PayloadSize.Medium, PayloadSize.Large];
    public static IEnumerable<int> OperationCounts() => BenchRunner.Quick ? [200] : [1_000, 10_000];
    public static IEnumerable<int> CoreCounts() => CoreAffinity.Series(BenchRunner.Quick);

    [ParamsSource(nameof(Providers))]
    public string Provider { get; set; } = ProviderNames.InMemory;

    [ParamsSource(nameof(Payloads))]
    public PayloadSize Payload { get; set; }

    [ParamsSource(nameof(OperationCounts))]
    public int Operations { get; set; }

    /// <summary>CPUs the process is confined to for the case (the seed's CoreCount); batch writes run this wide.</summary>
    [ParamsSource(nameof(CoreCounts))]
    public int Cores { get; set; } = 1;

    private nint? _affinity;

    [GlobalSetup]
    public async Task Setup()
    {
        _affinity = CoreAffinity.Confine(Cores);
        _provider = await ProviderNames.CreateAsync(Provider);
        _keys = Enumerable.Range(0, Operations).Select(i => $"entity/{i:D6}").ToArray();
        _payload = new byte[(int)Payload];
        new Random(42).NextBytes(_payload);
        _batches = _keys.Select(k => new KeyValuePair<string, byte[]>(k, _payload)).Chunk(BatchSize).ToList();
        await _provider.ClearAsync();
        foreach (var batch in _batches) await _provider.SaveBatchAsync(batch);
    }

    [GlobalCleanup]
    public async Task Cleanup()
    {
        await _provider.DisposeAsync();
        CoreAffinity.Restore(_affinity);
    }

    /// <summary>Overwrites every key, one call each.</summary>
    [Benchmark]
    public async Task<int> SequentialWrite()
    {
        var slow = Slowdown.Start(Self, nameof(SequentialWrite));
        foreach (var key in _keys) await _provider.SaveAsync(key, _payload);
        slow.Stretch();
        return _keys.Length;
    }

    /// <summary>Reads every key, one call each.</summary>
    [Benchmark]
    public async Task<long> SequentialRead()
    {
        var slow = Slowdown.Start(Self, nameof(SequentialRead));
        long bytes = 0;
        foreach (var key in _keys) bytes += (await _provider.LoadAsync(key))?.Length ?? 0;
        slow.Stretch();
        return bytes;
    }

    /// <summary>70 % reads, 20 % writes, 10 % deletes. Every deleted key (i % 10 == 9) was re-written just before
    /// (at i - 1), so the store ends each iteration as it started, less the deleted tenth, which the next iteration
    /// writes back before deleting again.</summary>
    [Benchmark]
    public async Task<long> MixedOperations()
    {
        var slow = Slowdown.Start(Self, nameof(MixedOperations));
        long work = 0;
        for (var i = 0; i < _keys.Length; i++)
        {
            switch (i % 10)
            {
                case < 7:
                    work += (await _provider.LoadAsync(_keys[i]))?.Length ?? 0;
                    break;
                case 7:
                    await _provider.SaveAsync(_keys[i], _payload);
                    break;
                case 8:
                    if (i + 1 < _keys.Length) await _provider.SaveAsync(_keys[i + 1], _payload);
                    break;
                default:
                    if (await _provider.DeleteAsync(_keys[i])) work++;
                    break;
            }
        }
        slow.Stretch();
        return work;
    }

    /// <summary>Writes every key in batches of 100 (one transaction / parallel write per batch), <see cref="Cores"/>
    /// batches at a time: the seed's "parallel batch processing".</summary>
    [Benchmark]
    public async Task<int> BatchWrite()
    {
        var slow = Slowdown.Start(Self, nameof(BatchWrite));
        await Parallel.ForEachAsync(_batches, new ParallelOptions { MaxDegreeOfParallelism = Cores },
            async (batch, ct) => await _provider.SaveBatchAsync(batch, ct));
        slow.Stretch();
        return _batches.Count;
    }

    /// <summary>Reads back the whole store.</summary>
    [Benchmark]
    public async Task<int> GetAll()
    {
        var slow = Slowdown.Start(Self, nameof(GetAll));
        var all = await _provider.GetAllAsync();
        slow.Stretch();
        return all.Count;
    }
}
