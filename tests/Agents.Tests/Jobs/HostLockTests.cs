using PerfService.Agents.Jobs;
using PerfService.Agents.Tests.Support;

namespace PerfService.Agents.Tests.Jobs;

/// <summary>The host lock across the agents of one machine: with two slots two suites run at once, on different CPUs.</summary>
public sealed class HostLockTests : IDisposable
{
    private readonly TempDir _dir = new();
    private readonly List<string> _log = [];

    [Fact]
    public async Task One_slot_is_exclusive_and_pins_nothing()
    {
        var path = _dir.Combine("host.lock");
        using var first = await HostLock.AcquireAsync(path, 1, _log.Add, CancellationToken.None);
        Assert.Null(first.Cpu);
        using var timeout = new CancellationTokenSource(TimeSpan.FromMilliseconds(600));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => HostLock.AcquireAsync(path, 1, _log.Add, timeout.Token));
        Assert.Contains(_log, l => l.Contains("waiting for the host lock"));
    }

    [Fact]
    public async Task Two_slots_hold_two_suites_on_different_cpus_and_a_third_waits_for_a_release()
    {
        var path = _dir.Combine("host.lock");
        var first = await HostLock.AcquireAsync(path, 2, _log.Add, CancellationToken.None);
        using var second = await HostLock.AcquireAsync(path, 2, _log.Add, CancellationToken.None);
        Assert.Equal(("0", "1"), (first.Cpu, second.Cpu));

        var third = HostLock.AcquireAsync(path, 2, _log.Add, CancellationToken.None);
        // It has found both slots held and says it waits: from then on only a release lets it in.
        Assert.True(await Eventually.TrueAsync(() => _log.Any(l => l.Contains("waiting for the host lock")), TimeSpan.FromSeconds(10)));
        Assert.False(third.IsCompleted);
        first.Dispose();
        using var got = await third.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.Equal("0", got.Cpu);
    }

    public void Dispose() => _dir.Dispose();
}
