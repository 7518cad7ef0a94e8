using System.ComponentModel;
using System.Diagnostics;
using System.Text;

namespace PerfService.Agents.Processes;

/// <summary>
/// Runs one process to completion: streams its stdout/stderr lines to <c>onLine</c> as they come, keeps a tail for
/// error reports, kills the whole process tree on timeout or cancellation (a harness forks compilers and benchmark
/// children that would otherwise keep running and skew the next suite).
/// </summary>
public sealed class ProcessRunner
{
    private const int TailLines = 40;

    // After a kill, how long to wait for the pipes to close before giving up on them.
    private static readonly TimeSpan _killGrace = TimeSpan.FromSeconds(5);

    public async Task<ProcessResult> RunAsync(
        ProcessSpec spec,
        Action<string>? onLine = null,
        CancellationToken ct = default
    )
    {
        var psi = CreateStartInfo(spec);
        using var process = new Process { StartInfo = psi, EnableRaisingEvents = true };
        var stdout = new StringBuilder();
        var tail = new Queue<string>();
        void Line(string line, bool isStdout)
        {
            lock (tail)
            {
                if (isStdout && spec.CaptureStdout)
                    stdout.Append(line).Append('\n');
                tail.Enqueue(line);
                if (tail.Count > TailLines)
                    tail.Dequeue();
            }
            onLine?.Invoke(line);
        }
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is not null)
                Line(e.Data, isStdout: true);
        };
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
                Line(e.Data, isStdout: false);
        };

        var clock = Stopwatch.StartNew();
        var exited = new ManualResetEventSlim();
        try
        {
            if (spec.KeepSpawningThread)
                StartOnOwnThread(process, exited);
            else
                process.Start();
        }
        catch (Win32Exception e)
        {
            throw new ProcessStartException($"cannot start '{spec.FileName}': {e.Message}", e);
        }
        try
        {
            return await WaitAsync(process, spec, stdout, tail, clock, ct);
        }
        finally
        {
            exited.Set();
        }
    }

    private static void StartOnOwnThread(Process process, ManualResetEventSlim exited)
    {
        Exception? failure = null;
        var started = new ManualResetEventSlim();
        var thread = new Thread(() =>
        {
            try
            {
                process.Start();
            }
            catch (Exception e)
            {
                failure = e;
                return;
            }
            finally
            {
                started.Set();
            }
            exited.Wait();
        })
        {
            IsBackground = true,
            Name = "harness",
        };
        thread.Start();
        started.Wait();
        if (failure is not null)
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(failure);
    }

    private static async Task<ProcessResult> WaitAsync(
        Process process,
        ProcessSpec spec,
        StringBuilder stdout,
        Queue<string> tail,
        Stopwatch clock,
        CancellationToken ct
    )
    {
        process.StandardInput.Close(); // a harness that asks a question must not hang the agent
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        using var timeout = spec.Timeout is { } t ? new CancellationTokenSource(t) : new CancellationTokenSource();
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(ct, timeout.Token);
        var timedOut = false;
        try
        {
            await process.WaitForExitAsync(linked.Token);
        }
        catch (OperationCanceledException)
        {
            KillTree(process);
            await Task.WhenAny(
                process.WaitForExitAsync(CancellationToken.None),
                Task.Delay(_killGrace, CancellationToken.None)
            );
            ct.ThrowIfCancellationRequested();
            timedOut = true;
        }
        lock (tail)
        {
            var exit = process.HasExited ? process.ExitCode : -1;
            return new ProcessResult(exit, timedOut, stdout.ToString(), [.. tail], clock.Elapsed);
        }
    }

    private static ProcessStartInfo CreateStartInfo(ProcessSpec spec)
    {
        var psi = new ProcessStartInfo
        {
            WorkingDirectory = spec.WorkingDirectory,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            StandardOutputEncoding = Encoding.UTF8,
            StandardErrorEncoding = Encoding.UTF8,
        };
        // Nothing of the agent's environment reaches a child unless ChildEnvironment lets it through.
        psi.Environment.Clear();
        foreach (var (key, value) in ChildEnvironment.Inherited())
            psi.Environment[key] = value;
        foreach (var (key, value) in spec.Environment)
        {
            if (value is null)
                psi.Environment.Remove(key);
            else
                psi.Environment[key] = value;
        }
        psi.Environment.TryGetValue("PATH", out var path);
        psi.FileName =
            PathLookup.Find(spec.FileName, path)
            ?? throw new ProcessStartException($"cannot start '{spec.FileName}': not found on PATH");
        foreach (var arg in spec.Arguments)
            psi.ArgumentList.Add(arg);
        return psi;
    }

    private static void KillTree(Process process)
    {
        try
        {
            if (!process.HasExited)
                process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // It exited between the check and the kill.
        }
    }
}
