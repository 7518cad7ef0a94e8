using System.Collections.Concurrent;
using System.Diagnostics;
using PerfService.Agents.Processes;
using PerfService.Agents.Tests.Support;

namespace PerfService.Agents.Tests.Processes;

public sealed class ProcessRunnerTests : IDisposable
{
    private readonly TempDir _dir = new();
    private readonly ProcessRunner _runner = new();

    private ProcessSpec Sh(string script) => new("/bin/sh", ["-c", script], _dir.Path);

    [Fact]
    public async Task Output_lines_are_streamed_as_they_come()
    {
        // The script waits for the test to have seen its first line: only streaming lets it finish.
        var ack = _dir.Combine("ack");
        var lines = new ConcurrentQueue<string>();
        void OnLine(string line)
        {
            lines.Enqueue(line);
            if (line == "first") File.WriteAllText(ack, "");
        }
        var spec = Sh($"echo first; echo to-stderr >&2; while [ ! -f {ack} ]; do sleep 0.05; done; echo last") with
        {
            Timeout = TimeSpan.FromSeconds(30),
        };
        var result = await _runner.RunAsync(spec, OnLine);
        Assert.True(result.Succeeded);
        Assert.Equal(["first", "last", "to-stderr"], lines.Order());
    }

    [Fact]
    public async Task Non_zero_exit_is_captured_with_the_tail()
    {
        var result = await _runner.RunAsync(Sh("for i in $(seq 1 10); do echo line $i; done; echo 'error: it broke' >&2; exit 3"));
        Assert.False(result.Succeeded);
        Assert.Equal(3, result.ExitCode);
        Assert.False(result.TimedOut);
        // stdout and stderr are two pipes read concurrently: both are in the tail, in an order that is not defined.
        Assert.Equal(11, result.Tail.Count);
        Assert.Contains("error: it broke", result.Tail);
        Assert.Contains("line 10", result.Tail);
    }

    [Fact]
    public async Task The_tail_keeps_the_last_40_lines()
    {
        var result = await _runner.RunAsync(Sh("for i in $(seq 1 100); do echo line $i; done"));
        Assert.Equal(Enumerable.Range(61, 40).Select(i => $"line {i}"), result.Tail);
    }

    [Fact]
    public async Task Timeout_kills_the_whole_process_tree()
    {
        var pidFile = _dir.Combine("pids");
        // The shell forks a sleep child and a grandchild shell with its own sleep.
        var spec = Sh($"sleep 300 & echo $! >> {pidFile}; sh -c 'sleep 300 & echo $! >> {pidFile}; wait' & wait") with
        {
            Timeout = TimeSpan.FromSeconds(3), // time for both shells to start and write their pids on a loaded machine
        };
        var clock = Stopwatch.StartNew();
        var result = await _runner.RunAsync(spec);
        Assert.True(result.TimedOut);
        Assert.False(result.Succeeded);
        Assert.InRange(clock.Elapsed, TimeSpan.FromSeconds(3), TimeSpan.FromSeconds(60));
        var pids = (await File.ReadAllLinesAsync(pidFile)).Select(int.Parse).ToList();
        Assert.Equal(2, pids.Count);
        await AssertGoneAsync(pids);
    }

    [Fact]
    public async Task Cancellation_kills_the_tree_and_throws()
    {
        var pidFile = _dir.Combine("pid");
        using var cts = new CancellationTokenSource();
        var run = _runner.RunAsync(Sh($"sleep 300 & echo $! > {pidFile}; wait"), ct: cts.Token);
        await WaitForFileAsync(pidFile);
        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run);
        await AssertGoneAsync([int.Parse((await File.ReadAllTextAsync(pidFile)).Trim())]);
    }

    [Fact]
    public async Task Stdout_is_kept_whole_when_asked_and_environment_reaches_the_child()
    {
        var spec = Sh("seq 1 500; echo \"v=$PERF_TEST_VAR\"") with
        {
            CaptureStdout = true,
            Environment = new Dictionary<string, string?> { ["PERF_TEST_VAR"] = "hello" },
        };
        var result = await _runner.RunAsync(spec);
        var lines = result.Stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(501, lines.Length);
        Assert.Equal("v=hello", lines[^1]);
    }

    [Fact]
    public async Task A_missing_tool_is_a_clear_start_error()
    {
        var e = await Assert.ThrowsAsync<ProcessStartException>(() => _runner.RunAsync(new ProcessSpec("no-such-tool-xyz", [], _dir.Path)));
        Assert.Contains("no-such-tool-xyz", e.Message);
    }

    /// <summary>Waits (up to 30 s: a loaded machine starts processes slowly) for the child to have written the file.</summary>
    private static async Task WaitForFileAsync(string file)
    {
        Assert.True(await Eventually.TrueAsync(() => File.Exists(file) && new FileInfo(file).Length > 0, TimeSpan.FromSeconds(30), 50),
            $"{file} was never written");
    }

    private static async Task AssertGoneAsync(IEnumerable<int> pids)
    {
        foreach (var pid in pids)
        {
            // Killed processes may linger a moment as zombies until reaped; /proc/<pid>/stat then says state Z.
            Assert.True(await Eventually.TrueAsync(() => !Alive(pid), TimeSpan.FromSeconds(30)), $"process {pid} still running");
        }
    }

    private static bool Alive(int pid)
    {
        var stat = $"/proc/{pid}/stat";
        if (!File.Exists(stat)) return false;
        try
        {
            var text = File.ReadAllText(stat);
            return text[(text.LastIndexOf(')') + 2)] != 'Z';
        }
        catch (IOException)
        {
            return false;
        }
    }

    public void Dispose() => _dir.Dispose();
}
