using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace PerfService.EndToEndTests;

/// <summary>A real process started from a built dll beside the tests, with its output kept for failure messages.</summary>
public sealed class RealProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly List<string> _output = [];

    private RealProcess(Process process) => _process = process;

    public string Output { get { lock (_output) return string.Join('\n', _output.TakeLast(60)); } }
    public bool HasExited => _process.HasExited;

    public static RealProcess Start(string dll, IEnumerable<string> args, IReadOnlyDictionary<string, string> env)
    {
        var info = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, dll));
        foreach (var a in args) info.ArgumentList.Add(a);
        foreach (var (k, v) in env) info.Environment[k] = v;
        var process = new RealProcess(Process.Start(info)!);
        process._process.OutputDataReceived += (_, e) => process.Add(e.Data);
        process._process.ErrorDataReceived += (_, e) => process.Add(e.Data);
        process._process.BeginOutputReadLine();
        process._process.BeginErrorReadLine();
        return process;
    }

    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private void Add(string? line)
    {
        if (line is null) return;
        lock (_output) _output.Add(line);
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            try { Process.Start("kill", ["-TERM", _process.Id.ToString()])?.WaitForExit(2000); } catch (Exception) { }
            using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(20));
            try { await _process.WaitForExitAsync(wait.Token); } catch (OperationCanceledException) { _process.Kill(entireProcessTree: true); }
        }
        _process.Dispose();
    }
}
