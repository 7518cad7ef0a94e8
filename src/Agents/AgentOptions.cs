namespace PerfService.Agents;

/// <summary>How the agent was started (the `agent` verb's options).</summary>
public sealed record AgentOptions
{
    public required string Server { get; init; }
    public required string Token { get; init; }
    public required string Profile { get; init; }
    public required string WorkDir { get; init; }
    public string Name { get; init; } = Environment.MachineName;
    public bool Once { get; init; }
    public int WaitSeconds { get; init; } = 30;

    /// <summary>taskset CPU list for the harnesses, e.g. "2-3".</summary>
    public string? Cpus { get; init; }
    public string? ProfilesFile { get; init; }

    /// <summary>A file shared by all agents of one host: suites run one at a time across them.</summary>
    public string? HostLock { get; init; }

    /// <summary>Suites that may run at once under <see cref="HostLock"/>, each pinned to its own CPU (slot k on CPU
    /// k).</summary>
    public int HostSlots { get; init; } = 1;

    /// <summary>Repeat a round that other processes, steal or throttling disturbed (within the job's repeat
    /// budget).</summary>
    public bool RepeatDisturbed { get; init; } = true;
    public TimeSpan HeartbeatInterval { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>How long a profile upload the service answers with a transient failure is retried within its job,
    /// before it waits in the spool.</summary>
    public TimeSpan UploadRetry { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>How harnesses are kept away from the agent: --run-as USER, --sandbox, the token file masked.</summary>
    public Isolation.HarnessIsolation Isolation { get; init; } = PerfService.Agents.Isolation.HarnessIsolation.None;

    /// <summary>Extra environment for every harness, on top of the few variables of the agent that
    /// <see cref="Processes.ChildEnvironment"/> lets through.</summary>
    public IReadOnlyDictionary<string, string?> HarnessEnvironment { get; init; } =
        new Dictionary<string, string?>
        {
            ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
            ["DOTNET_NOLOGO"] = "1",
            ["GIT_TERMINAL_PROMPT"] = "0",
        };

    public string SpoolDir => Path.Combine(WorkDir, "spool");
    public string ScratchDir => Path.Combine(WorkDir, "scratch");
}
