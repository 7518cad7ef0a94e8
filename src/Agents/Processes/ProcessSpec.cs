namespace PerfService.Agents.Processes;

/// <summary>What to run. <see cref="Environment"/> comes on top of the few variables of the agent that
/// <see cref="ChildEnvironment"/> passes (a null value removes one); its PATH, when given, is also the one the
/// executable is looked up in.</summary>
public sealed record ProcessSpec(string FileName, IReadOnlyList<string> Arguments, string WorkingDirectory)
{
    public IReadOnlyDictionary<string, string?> Environment { get; init; } = new Dictionary<string, string?>();
    public TimeSpan? Timeout { get; init; }

    /// <summary>Keep the whole stdout (go test's output is the result file); otherwise only the tail is kept.</summary>
    public bool CaptureStdout { get; init; }

    /// <summary>Start from a thread that lives until the process exits: a parent-death signal (bwrap's
    /// --die-with-parent) fires when the starting thread ends, and thread-pool threads do end.</summary>
    public bool KeepSpawningThread { get; init; }

    public string Display => string.Join(' ', [FileName, .. Arguments.Select(Quote)]);

    private static string Quote(string arg) =>
        arg.Length > 0 && arg.All(c => char.IsLetterOrDigit(c) || "-_./=:,@+".Contains(c))
            ? arg
            : $"'{arg.Replace("'", "'\\''")}'";
}

public sealed record ProcessResult(
    int ExitCode,
    bool TimedOut,
    string Stdout,
    IReadOnlyList<string> Tail,
    TimeSpan Elapsed
)
{
    public bool Succeeded => ExitCode == 0 && !TimedOut;
}

/// <summary>The executable could not be started at all (not installed, not on PATH, not executable).</summary>
public sealed class ProcessStartException(string message, Exception? inner = null) : Exception(message, inner);
