namespace Rivulet.Benchmarks;

/// <summary>The simulated work every Rivulet benchmark shares.</summary>
internal static class Workload
{
    /// <summary>Items per operation. The seed used 500-1,000; 200 keeps a sequential pass near 0.2 s.</summary>
    public const int ItemCount = 200;

    /// <summary>Degree for the non-scaling benchmarks.</summary>
    public const int Degree = 16;

    public static int[] Items() => Enumerable.Range(0, ItemCount).ToArray();

    /// <summary>Simulated I/O: a 1 ms request to <see cref="SimulatedDevice.Shared"/> (about 1.05-1.1 ms measured),
    /// then a trivial result.</summary>
    public static async ValueTask<int> SimulatedIoAsync(int item, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        await SimulatedDevice.Shared.RequestAsync().ConfigureAwait(false);
        return item * 2;
    }

    /// <summary>Slower simulated I/O: a 2 ms request to <see cref="SimulatedDevice.Slow"/>. The advanced-features
    /// benchmarks use it (the seed's 2 ms), so that the features' CPU cost is compared against realistic waiting.</summary>
    public static async ValueTask<int> SlowIoAsync(int item, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        await SimulatedDevice.Slow.RequestAsync().ConfigureAwait(false);
        return item * 2;
    }

    /// <summary>Light CPU work (a few hundred nanoseconds) that completes synchronously.</summary>
    public static ValueTask<int> CpuLight(int item, CancellationToken _)
    {
        var x = (uint)item | 1;
        for (var i = 0; i < 64; i++)
        {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
        }
        return ValueTask.FromResult((int)(x & 0x7fff_ffff));
    }
}
