namespace PerfService.Agents.Jobs;

/// <summary>
/// A machine-wide lock around each suite run, for several agents on one host (the demo simulates three profiles on
/// one machine): suites then run one at a time across all of them, as on dedicated machines, instead of measuring
/// each other. An exclusive open of a shared file is an advisory lock on Linux and macOS, released if the holder dies.
/// </summary>
public static class HostLock
{
    public static async Task<IDisposable> AcquireAsync(string path, Action<string> log, CancellationToken ct)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        var waited = false;
        while (true)
        {
            try
            {
                return new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
            }
            catch (IOException)
            {
                if (!waited) log($"waiting for the host lock {path}: another agent on this machine is running a suite");
                waited = true;
                await Task.Delay(TimeSpan.FromMilliseconds(200), ct);
            }
        }
    }
}
