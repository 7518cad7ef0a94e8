using System.Diagnostics;
using PerfService.Agents.Tests.Support;

namespace PerfService.Agents.Tests.Isolation;

/// <summary>The real agent executable (perf-agent.dll beside the tests) started as its own process, so that its
/// /proc/PID/environ is a real one a harness could try to read.</summary>
public static class AgentProcess
{
    public sealed record Exit(int Code, string Output);

    public static async Task<Exit> RunOnceAsync(string server, string workDir, IReadOnlyDictionary<string, string> environment, params string[] extra)
    {
        Directory.CreateDirectory(workDir);
        var psi = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = workDir };
        string[] args = [Path.Combine(AppContext.BaseDirectory, "perf-agent.dll"), "agent", "--server", server, "--profile", "ryzen-9950x",
            "--workdir", workDir, "--name", "isolated-1", "--once", "--wait-seconds", "1", "--profiles", TestPaths.ProfilesFile, .. extra];
        foreach (var a in args) psi.ArgumentList.Add(a);
        psi.Environment.Remove("PERF_TOKEN");
        foreach (var (key, value) in environment) psi.Environment[key] = value;
        using var process = Process.Start(psi)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(3));
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException("the agent did not finish its one job in 3 minutes:\n" + await stdout + await stderr);
        }
        return new Exit(process.ExitCode, await stdout + await stderr);
    }
}
