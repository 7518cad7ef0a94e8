using System.Globalization;
using PerfService.Agents.Processes;

namespace PerfService.Agents.Isolation;

/// <summary>A user the harnesses run as (<c>--run-as</c>), resolved once at start.</summary>
public sealed record RunAsUser(string Name, int Uid, int Gid);

/// <summary>
/// How harness processes are kept away from the agent: the code of a pull request must not read the agent's
/// token, its /proc/PID/environ or memory, or anything of the machine it does not need.
/// <list type="bullet">
/// <item><c>--run-as USER</c>: the harness runs as another user (setpriv), so the kernel refuses it the agent's
/// /proc entries and files; the folders it writes are handed to that user first (<see cref="HandOverAsync"/>).</item>
/// <item><c>--sandbox</c>: the harness runs in bubblewrap: no network, its own pid/ipc/uts namespaces (the agent's
/// processes are not even visible), no capabilities, the whole filesystem read-only except the folders it writes,
/// a private /tmp and /run, home folders hidden except the toolchains on its PATH, and the token file masked.</item>
/// </list>
/// Both may be combined (setpriv outside, bwrap inside).
/// </summary>
public sealed class HarnessIsolation
{
    public static readonly HarnessIsolation None = new();

    public RunAsUser? RunAs { get; init; }
    public bool Sandbox { get; init; }

    /// <summary>Files no harness may read even when it runs as the agent's own user (the token file).</summary>
    public IReadOnlyList<string> Hidden { get; init; } = [];

    // Home folders often hold credentials (~/.ssh, ~/.git-credentials, ~/.config/gh). Toolchains installed there
    // (rustup's ~/.cargo/bin) are mounted back read-only from the harness's PATH and toolchain variables.
    private static readonly string[] _hiddenTrees = ["/root", "/home"];

    // Readable by their owner even without capabilities, so by a sandbox started by root: masked as well. An agent
    // running as root should still use --run-as (deploy/systemd runs it as perf-agent).
    private static readonly string[] _hiddenSystemFiles = ["/etc/shadow", "/etc/gshadow", "/etc/sudoers"];
    private static readonly string[] _hiddenSystemTrees =
    [
        "/etc/perf-agent",
        "/etc/perfservice",
        "/etc/ssh",
        "/etc/sudoers.d",
    ];
    private static readonly string[] _toolchainVariables = ["RUSTUP_HOME", "CARGO_HOME", "GOROOT", "DOTNET_ROOT"];

    /// <summary>The harness command, wrapped for the isolation asked for. <paramref name="writable"/> are the only
    /// folders a sandboxed harness may write to (its checkout, home, caches, scratch).</summary>
    public ProcessSpec Wrap(ProcessSpec spec, IReadOnlyList<string> writable)
    {
        if (RunAs is null && !Sandbox)
            return spec;
        var path =
            spec.Environment.GetValueOrDefault("PATH") ?? ChildEnvironment.Inherited().GetValueOrDefault("PATH") ?? "";
        // Resolved here, with the harness's PATH: bwrap and setpriv would otherwise search their own.
        var file =
            PathLookup.Find(spec.FileName, path)
            ?? throw new ProcessStartException($"cannot start '{spec.FileName}': not found on PATH");
        List<string> command = [file, .. spec.Arguments];
        var keepThread = false;
        if (Sandbox)
        {
            command = ["bwrap", .. SandboxArgs(spec, writable, path), "--", .. command];
            keepThread = true;
        }
        if (RunAs is { } user)
        {
            string[] setpriv =
            [
                "setpriv",
                "--reuid",
                Id(user.Uid),
                "--regid",
                Id(user.Gid),
                "--init-groups",
                "--no-new-privs",
                "--",
            ];
            command = [.. setpriv, .. command];
        }
        return spec with { FileName = command[0], Arguments = command[1..], KeepSpawningThread = keepThread };
    }

    private List<string> SandboxArgs(ProcessSpec spec, IReadOnlyList<string> writable, string path)
    {
        List<string> args =
        [
            // --die-with-parent: the sandbox goes when the agent does (ProcessRunner keeps the spawning thread alive,
            // since the kernel ties this to the thread that started bwrap, and pool threads come and go).
            "--die-with-parent",
            "--new-session",
            "--unshare-all",
            "--cap-drop",
            "ALL",
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",
            "--tmpfs",
            "/run",
        ];
        foreach (var tree in _hiddenTrees.Concat(_hiddenSystemTrees).Where(Directory.Exists))
            args.AddRange(["--tmpfs", tree]);
        var toolchains = path.Split(':', StringSplitOptions.RemoveEmptyEntries)
            .Concat(
                _toolchainVariables
                    .Select(v =>
                        spec.Environment.GetValueOrDefault(v) ?? ChildEnvironment.Inherited().GetValueOrDefault(v)
                    )
                    .OfType<string>()
            )
            .Where(d => Path.IsPathRooted(d) && _hiddenTrees.Any(t => d.StartsWith(t + "/", StringComparison.Ordinal)))
            .Distinct(StringComparer.Ordinal);
        // With --run-as the harness's user could not read them anyway (toolchains then live outside home folders).
        if (RunAs is null)
            foreach (var dir in toolchains)
                args.AddRange(["--ro-bind-try", dir, dir]);
        foreach (var dir in writable.Distinct(StringComparer.Ordinal))
        {
            Directory.CreateDirectory(dir);
            args.AddRange(["--bind", dir, dir]);
        }
        foreach (var file in Hidden.Concat(_hiddenSystemFiles).Where(File.Exists))
            args.AddRange(["--ro-bind", "/dev/null", file]);
        args.AddRange(["--chdir", spec.WorkingDirectory]);
        return args;
    }

    /// <summary>With --run-as, gives <paramref name="folders"/> (checkouts, home, scratch) to the harness's user, so
    /// that it can build there; the agent keeps its own files (spool, clones) to itself.</summary>
    public async Task HandOverAsync(ProcessRunner processes, IReadOnlyList<string> folders, CancellationToken ct)
    {
        if (RunAs is not { } user)
            return;
        var existing = folders
            .Distinct(StringComparer.Ordinal)
            .Where(f =>
            {
                Directory.CreateDirectory(f);
                return true;
            })
            .ToList();
        if (existing.Count == 0)
            return;
        var result = await processes.RunAsync(
            new ProcessSpec("chown", ["-R", $"{Id(user.Uid)}:{Id(user.Gid)}", "--", .. existing], "/"),
            ct: ct
        );
        if (!result.Succeeded)
            throw new IOException(
                $"cannot hand {string.Join(", ", existing)} to {user.Name}: {string.Join('\n', result.Tail)}"
            );
    }

    private static string Id(int id) => id.ToString(CultureInfo.InvariantCulture);
}
