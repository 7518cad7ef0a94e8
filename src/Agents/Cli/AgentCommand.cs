using System.CommandLine;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using PerfService.Agents.Isolation;
using PerfService.Agents.Machine;
using PerfService.Agents.Processes;
using PerfService.Agents.Worker;

namespace PerfService.Agents.Cli;

/// <summary>perf-agent agent …: run the benchmark agent (claim jobs, run suites, post runs) until stopped.</summary>
public static class AgentCommand
{
    public static Command Create()
    {
        var server = new Option<string>("--server") { Description = "PerfService base URL", Required = true };
        var token = CommonOptions.Token();
        var profile = new Option<string>("--profile")
        {
            Description = "Machine profile this agent serves (see deploy/profiles.json)",
            Required = true,
        };
        var workdir = new Option<string>("--workdir")
        {
            Description = "Folder for clones, worktrees and the spool",
            Required = true,
        };
        var name = new Option<string>("--name")
        {
            Description = "Agent name",
            DefaultValueFactory = _ => Environment.MachineName,
        };
        var once = new Option<bool>("--once") { Description = "Exit after one job (exit code 0 when it succeeded)" };
        var wait = new Option<int>("--wait-seconds")
        {
            Description = "Long-poll wait of each claim",
            DefaultValueFactory = _ => 30,
        };
        var cpus = new Option<string?>("--cpus") { Description = "Pin harnesses to these CPUs with taskset, e.g. 2-3" };
        var profiles = new Option<string?>("--profiles")
        {
            Description = "profiles.json (default: deploy/profiles.json above the current folder)",
        };
        var hostLock = new Option<string?>("--host-lock")
        {
            Description = "Lock file shared by the agents of one machine: one suite at a time across them",
        };
        var hostSlots = new Option<int>("--host-slots")
        {
            Description =
                "With --host-lock: suites that may run at once on this host, each pinned to its own CPU (slot k on CPU k)",
            DefaultValueFactory = _ => 1,
        };
        var tokenFile = new Option<string?>("--token-file")
        {
            Description =
                "Read the token from this file (mode 600, the agent's user only): the safe way, nothing a harness can see",
        };
        var runAs = new Option<string?>("--run-as")
        {
            Description = "Run every harness as this (unprivileged) user, e.g. perf-bench",
        };
        var sandbox = new Option<bool>("--sandbox")
        {
            Description =
                "Run every harness in a bubblewrap sandbox: no network, read-only system, only its folders writable",
        };
        var passEnv = new Option<string[]>("--pass-env")
        {
            Description =
                "Also hand this variable of the agent's environment to harnesses (repeatable), e.g. PERF_BENCH_PG; none is passed otherwise beyond PATH, toolchain variables and PERF_SLOWDOWN",
            AllowMultipleArgumentsPerToken = false,
        };
        var noRepeat = new Option<bool>("--no-repeat-disturbed")
        {
            Description =
                "Post a round that other processes, CPU steal or throttling disturbed as it is (marked) instead of repeating it",
        };
        var command = new Command("agent", "Run the benchmark agent")
        {
            server,
            token,
            tokenFile,
            profile,
            workdir,
            name,
            once,
            wait,
            cpus,
            profiles,
            hostLock,
            hostSlots,
            runAs,
            sandbox,
            passEnv,
            noRepeat,
        };
        command.SetAction(
            async (parseResult, ct) =>
            {
                var error = parseResult.InvocationConfiguration.Error;
                string? bearer;
                var tokenPath = parseResult.GetValue(tokenFile);
                if (tokenPath is not null)
                {
                    if (!string.IsNullOrEmpty(parseResult.GetValue(token)))
                    {
                        error.WriteLine("error: give --token or --token-file, not both");
                        return 1;
                    }
                    (bearer, var problem) = TokenFile.Read(tokenPath);
                    if (bearer is null)
                    {
                        error.WriteLine($"error: {problem}");
                        return 1;
                    }
                }
                else if ((bearer = CommonOptions.ResolveToken(parseResult, token)) is null)
                {
                    return 1;
                }
                var (isolation, isolationError) = await IsolationSetup.CreateAsync(
                    parseResult.GetValue(runAs),
                    parseResult.GetValue(sandbox),
                    tokenPath is null ? [] : [Path.GetFullPath(tokenPath)],
                    new ProcessRunner(),
                    ct
                );
                if (isolation is null)
                {
                    error.WriteLine($"error: {isolationError}");
                    return 1;
                }
                var options = new AgentOptions
                {
                    Server = parseResult.GetValue(server)!,
                    Token = bearer,
                    Profile = parseResult.GetValue(profile)!,
                    WorkDir = Path.GetFullPath(parseResult.GetValue(workdir)!),
                    Name = parseResult.GetValue(name)!,
                    Once = parseResult.GetValue(once),
                    WaitSeconds = Math.Clamp(parseResult.GetValue(wait), 0, 300),
                    Cpus = parseResult.GetValue(cpus),
                    ProfilesFile = parseResult.GetValue(profiles),
                    HostLock = parseResult.GetValue(hostLock),
                    HostSlots = Math.Clamp(parseResult.GetValue(hostSlots), 1, Environment.ProcessorCount),
                    Isolation = isolation,
                    RepeatDisturbed = !parseResult.GetValue(noRepeat),
                };
                var passed = new Dictionary<string, string?>(options.HarnessEnvironment);
                foreach (var variable in parseResult.GetValue(passEnv) ?? [])
                    if (Environment.GetEnvironmentVariable(variable) is { } value)
                        passed[variable] = value;
                options = options with { HarnessEnvironment = passed };
                return await RunAsync(
                    options,
                    parseResult.InvocationConfiguration.Output,
                    parseResult.InvocationConfiguration.Error,
                    ct
                );
            }
        );
        return command;
    }

    private static async Task<int> RunAsync(
        AgentOptions options,
        TextWriter output,
        TextWriter error,
        CancellationToken ct
    )
    {
        var console = new AgentConsole(output, TimeProvider.System);
        var identity = await IdentifyAsync(options, console, error, ct);
        if (identity is null)
            return 1;
        try
        {
            Directory.CreateDirectory(options.WorkDir);
            Directory.CreateDirectory(options.SpoolDir);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            error.WriteLine($"error: cannot use --workdir {options.WorkDir}: {e.Message}");
            return 1;
        }

        var builder = Host.CreateApplicationBuilder(
            new HostApplicationBuilderSettings { DisableDefaults = true, Args = [] }
        );
        builder.Services.Configure<ConsoleLifetimeOptions>(o => o.SuppressStatusMessages = true);
        // Time to kill a harness and tell the service about the job on SIGTERM.
        builder.Services.Configure<HostOptions>(o => o.ShutdownTimeout = TimeSpan.FromSeconds(30));
        builder.Services.AddSingleton(_ =>
            AgentFactory.Create(options, identity, console, TimeProvider.System, AgentFactory.CreateHttpClient(options))
        );
        builder.Services.AddSingleton<AgentWorker>();
        builder.Services.AddHostedService(sp => sp.GetRequiredService<AgentWorker>());
        using var host = builder.Build();
        var worker = host.Services.GetRequiredService<AgentWorker>();
        await host.RunAsync(ct);
        return worker.ExitCode;
    }

    /// <summary>Finds the profile, detects the machine and says plainly when the two differ.</summary>
    private static async Task<AgentIdentity?> IdentifyAsync(
        AgentOptions options,
        AgentConsole console,
        TextWriter error,
        CancellationToken ct
    )
    {
        var file = ProfileCatalog.Locate(
            options.ProfilesFile,
            Directory.GetCurrentDirectory(),
            AppContext.BaseDirectory
        );
        if (file is null)
        {
            error.WriteLine(
                options.ProfilesFile is null
                    ? $"error: no {ProfileCatalog.RelativePath} found above {Directory.GetCurrentDirectory()}; pass --profiles FILE"
                    : $"error: --profiles {options.ProfilesFile} does not exist"
            );
            return null;
        }
        ProfileCatalog catalog;
        try
        {
            catalog = ProfileCatalog.Load(file);
        }
        catch (Exception e) when (e is IOException or FormatException or System.Text.Json.JsonException)
        {
            error.WriteLine($"error: cannot read {file}: {e.Message}");
            return null;
        }
        if (catalog.Find(options.Profile) is not { } profile)
        {
            error.WriteLine(
                $"error: profile {options.Profile} is not in {file} (known: {string.Join(", ", catalog.Profiles.Select(p => p.Name))})"
            );
            return null;
        }

        console.Line($"perf-agent {options.Name}: detecting the machine…");
        var machine = await new MachineDetector(new ProcessRunner()).DetectAsync(ct);
        var mismatch = profile.Mismatch(machine, MachineDetector.Arch);
        console.Line(
            $"machine: {machine.CpuModel}, {machine.PhysicalCores} cores / {machine.LogicalCores} threads {MachineDetector.Arch}, "
                + $"{machine.MemoryBytes / (1L << 30)} GiB, {machine.Os}, kernel {machine.Kernel}"
                + (machine.CpuGovernor is { } g ? $", governor {g}" : "")
                + (machine.LoadAverage is { } l ? $", load {l:0.00}" : "")
        );
        console.Line(
            "toolchains: "
                + (
                    machine.Toolchains.Count == 0
                        ? "none found"
                        : string.Join(", ", machine.Toolchains.Select(t => $"{t.Key} {t.Value}"))
                )
        );
        if (mismatch is not null)
        {
            console.Line($"WARNING: profile {profile.Name}: {mismatch}");
            console.Line("WARNING: every run this agent posts is marked ProfileMismatch=true");
        }
        else
        {
            console.Line($"profile {profile.Name}: this machine matches ({profile.Summary})");
        }
        if (machine.CpuGovernor is { } governor && governor != "performance")
            console.Line($"note: CPU governor is {governor}; 'performance' gives steadier numbers");
        return new AgentIdentity(options.Name, profile.Name, machine, MachineDetector.Arch, mismatch);
    }
}
