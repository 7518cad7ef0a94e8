using System.Collections.Concurrent;
using System.Diagnostics;

namespace PerfService.TestSupport;

/// <summary>
/// A process this test started: its output lines are kept (and written to a log file for post-mortems), and dispose
/// kills it — by its own id, never by name — if it is still running.
/// </summary>
public sealed class ChildProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly ConcurrentQueue<string> _lines = new();
    private readonly StreamWriter? _log;
    private readonly Lock _logLock = new();

    private ChildProcess(Process process, string? logFile)
    {
        _process = process;
        if (logFile is not null) _log = new StreamWriter(logFile, append: true) { AutoFlush = true };
    }

    public int Id => _process.Id;
    public bool HasExited => _process.HasExited;
    public int ExitCode => _process.ExitCode;
    public IReadOnlyCollection<string> Lines => _lines;
    public string Output => string.Join('\n', _lines);

    public static ChildProcess Start(string file, IEnumerable<string> args, string workingDirectory,
        IReadOnlyDictionary<string, string?>? environment = null, string? logFile = null)
    {
        var psi = new ProcessStartInfo(file)
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = false,
            UseShellExecute = false,
        };
        foreach (var a in args) psi.ArgumentList.Add(a);
        psi.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        psi.Environment["DOTNET_NOLOGO"] = "1";
        foreach (var (k, v) in environment ?? new Dictionary<string, string?>())
        {
            if (v is null) psi.Environment.Remove(k);
            else psi.Environment[k] = v;
        }
        var process = new Process { StartInfo = psi, EnableRaisingEvents = true };
        var child = new ChildProcess(process, logFile);
        process.OutputDataReceived += (_, e) => child.Add(e.Data);
        process.ErrorDataReceived += (_, e) => child.Add(e.Data);
        if (!process.Start()) throw new InvalidOperationException($"{file} did not start");
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return child;
    }

    private void Add(string? line)
    {
        if (line is null) return;
        _lines.Enqueue(line);
        lock (_logLock) _log?.WriteLine(line);
    }

    public bool Saw(string text) => _lines.Any(l => l.Contains(text, StringComparison.Ordinal));

    /// <summary>SIGKILL: no shutdown hooks, no flushing, sockets simply vanish.</summary>
    public void KillHard()
    {
        if (_process.HasExited) return;
        _process.Kill(entireProcessTree: false);
        _process.WaitForExit(10_000);
    }

    public async Task<bool> WaitForExitAsync(TimeSpan timeout)
    {
        using var cts = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(cts.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
                await WaitForExitAsync(TimeSpan.FromSeconds(10));
            }
        }
        catch (InvalidOperationException)
        {
            // Already gone.
        }
        _process.Dispose();
        lock (_logLock) _log?.Dispose();
    }
}
