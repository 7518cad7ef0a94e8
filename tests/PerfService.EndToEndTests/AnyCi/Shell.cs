using System.Diagnostics;

namespace PerfService.EndToEndTests.AnyCi;

/// <summary>Runs a documented shell snippet as a CI runner would: bash, a working folder, the step's environment.</summary>
public static class Shell
{
    public sealed record Outcome(int ExitCode, string Stdout, string Stderr)
    {
        public override string ToString() => $"exit {ExitCode}\nstdout:\n{Stdout}\nstderr:\n{Stderr}";
    }

    public static async Task<Outcome> RunAsync(string file, IEnumerable<string> args, string workdir, IReadOnlyDictionary<string, string> env,
        TimeSpan timeout)
    {
        var info = new ProcessStartInfo(file) { WorkingDirectory = workdir, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var a in args) info.ArgumentList.Add(a);
        foreach (var (k, v) in env) info.Environment[k] = v;
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var cts = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cts.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{file} {string.Join(' ', args)} ran longer than {timeout}");
        }
        return new Outcome(process.ExitCode, await stdout, await stderr);
    }

    /// <summary>A folder holding only a `perf` that runs the built CLI (perf-agent.dll beside the tests), to put first on PATH
    /// where the workflow's download step would have put the published executable.</summary>
    public static string PerfOnPath(string dir)
    {
        Directory.CreateDirectory(dir);
        Scripts.Write(Path.Combine(dir, "perf"), $"exec dotnet '{Path.Combine(AppContext.BaseDirectory, "perf-agent.dll")}' \"$@\"\n");
        return dir;
    }
}
