using System.Diagnostics;
using System.Globalization;

namespace PerfService.Demo;

/// <summary>
/// The demo's agents: one real agent process per profile, each logging to its own file. They share a host lock with
/// one slot per CPU (at most two), so on a 2-core machine two suites run at once, each pinned to its own core.
/// </summary>
public sealed class DemoAgents(string agent, string server, string token, string workdir) : IAsyncDisposable
{
    private readonly List<Process> _processes = [];
    private readonly List<StreamWriter> _writers = [];

    public IReadOnlyList<string> LogFiles { get; private set; } = [];

    public static int Slots => Math.Clamp(Environment.ProcessorCount, 1, 2);

    public void Start(IReadOnlyList<string> profiles)
    {
        // The product's agent as users run it: its build's perf-agent.dll, or a published single-file executable.
        var dll = agent.EndsWith(".dll", StringComparison.OrdinalIgnoreCase);
        var logs = new List<string>();
        foreach (var profile in profiles)
        {
            var dir = Path.Combine(workdir, "agents", profile);
            Directory.CreateDirectory(dir);
            var log = Path.Combine(workdir, $"agent-{profile}.log");
            var info = new ProcessStartInfo(dll ? "dotnet" : agent)
            {
                ArgumentList = { "agent", "--server", server, "--profile", profile, "--workdir", dir, "--name", $"demo-{profile}",
                                 "--host-lock", Path.Combine(workdir, "agents", "host.lock"), "--host-slots", Slots.ToString(CultureInfo.InvariantCulture),
                                 // The PostgreSQL-backed benchmarks use the demo's private cluster (./perf demo sets it); the
                                 // .NET 8/9 runtimes are in the private root install-toolchains.sh filled, not in the harness's HOME.
                                 "--pass-env", "PERF_BENCH_PG", "--pass-env", "PERF_DOTNET_ROOT" },
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            if (dll) info.ArgumentList.Insert(0, agent);
            info.Environment["PERF_TOKEN"] = token;
            var process = Process.Start(info) ?? throw new InvalidOperationException($"could not start the {profile} agent");
            var writer = new StreamWriter(log) { AutoFlush = true };
            _writers.Add(writer);
            process.OutputDataReceived += (_, e) => Write(writer, e.Data);
            process.ErrorDataReceived += (_, e) => Write(writer, e.Data);
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();
            _processes.Add(process);
            logs.Add(log);
        }
        LogFiles = logs;
    }

    private static void Write(StreamWriter writer, string? line)
    {
        if (line is null) return;
        lock (writer)
        {
            // A line still arriving after a killed agent's log was closed has nowhere to go.
            try { writer.WriteLine(line); } catch (ObjectDisposedException) { }
        }
    }

    public IEnumerable<string> Exited() =>
        _processes.Where(p => p.HasExited).Select(p => $"agent process {p.Id} exited with {p.ExitCode}");

    public ValueTask DisposeAsync() => new(StopAsync());

    private async Task StopAsync()
    {
        foreach (var p in _processes.Where(p => !p.HasExited))
        {
            // SIGTERM first: the agent reports its job as cancelled and exits; a kill only if it hangs.
            try { Process.Start("kill", ["-TERM", p.Id.ToString()])?.WaitForExit(2000); } catch (Exception) { }
        }
        foreach (var p in _processes)
        {
            using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(15));
            try { await p.WaitForExitAsync(wait.Token); }
            catch (OperationCanceledException) { p.Kill(entireProcessTree: true); }
            p.Dispose();
        }
        _processes.Clear();
        foreach (var w in _writers) lock (w) w.Dispose();
        _writers.Clear();
    }
}
