namespace PerfService.Agents.Jobs;

/// <summary>
/// A machine-wide lock around each suite run, for several agents on one host (the demo simulates three profiles on
/// one machine): suites then run one at a time across all of them, as on dedicated machines, instead of measuring
/// each other. An exclusive open of a shared file is an advisory lock on Linux and macOS, released if the holder dies.
/// With several slots (a host with a CPU to spare for each), as many suites run at once, each holding one slot file
/// (PATH.0, PATH.1…) and pinned to that slot's CPU, so that they do not share a core.
/// </summary>
public static class HostLock
{
    /// <summary>A held slot: <see cref="Cpu"/> is the CPU its suite is pinned to, null with a single slot.</summary>
    public sealed record Slot(IDisposable Lease, string? Cpu) : IDisposable
    {
        public void Dispose() => Lease.Dispose();
    }

    public static async Task<Slot> AcquireAsync(string path, int slots, Action<string> log, CancellationToken ct)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        var waited = false;
        while (true)
        {
            for (var k = 0; k < Math.Max(1, slots); k++)
            {
                try
                {
                    var file = slots <= 1 ? path : $"{path}.{k}";
                    var lease = new FileStream(file, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
                    return new Slot(
                        lease,
                        slots <= 1 ? null : k.ToString(System.Globalization.CultureInfo.InvariantCulture)
                    );
                }
                catch (IOException)
                {
                    // taken: try the next slot
                }
            }
            if (!waited)
                log(
                    $"waiting for the host lock {path}: other agents on this machine are running suites in all {Math.Max(1, slots)} slot(s)"
                );
            waited = true;
            await Task.Delay(TimeSpan.FromMilliseconds(200), ct);
        }
    }
}
