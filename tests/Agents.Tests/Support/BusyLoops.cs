using System.Diagnostics;
using System.Globalization;

namespace PerfService.Agents.Tests.Support;

/// <summary>`sh -c 'while :; do :; done'` loops that are not the test process's descendants (started through a shell
/// that exits at once, so they belong to no agent's process tree), killed on dispose.</summary>
public sealed class BusyLoops : IDisposable
{
    private readonly List<int> _pids;

    private BusyLoops(List<int> pids) => _pids = pids;

    public static BusyLoops Start(int count)
    {
        var start = new ProcessStartInfo("sh", ["-c", $"for i in $(seq {count}); do sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 & echo $!; done"])
        {
            RedirectStandardOutput = true,
        };
        using var shell = Process.Start(start)!;
        var pids = shell.StandardOutput.ReadToEnd().Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(p => int.Parse(p, CultureInfo.InvariantCulture)).ToList();
        shell.WaitForExit();
        return new BusyLoops(pids);
    }

    public void Dispose()
    {
        foreach (var pid in _pids)
        {
            try
            {
                using var loop = Process.GetProcessById(pid);
                loop.Kill();
            }
            catch (Exception e) when (e is ArgumentException or InvalidOperationException)
            {
                // Already gone.
            }
        }
    }
}
