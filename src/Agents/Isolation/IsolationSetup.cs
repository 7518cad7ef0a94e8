using System.Globalization;
using PerfService.Agents.Processes;

namespace PerfService.Agents.Isolation;

/// <summary>Checks at start that the isolation asked for can work on this machine, so the agent fails at once with
/// the reason instead of failing every job.</summary>
public static class IsolationSetup
{
    public static async Task<(HarnessIsolation? Isolation, string? Error)> CreateAsync(
        string? runAs,
        bool sandbox,
        IReadOnlyList<string> hidden,
        ProcessRunner processes,
        CancellationToken ct
    )
    {
        RunAsUser? user = null;
        if (!string.IsNullOrWhiteSpace(runAs))
        {
            if (PathLookup.Find("setpriv") is null)
                return (null, "--run-as needs setpriv (util-linux) on PATH");
            var uid = await IdAsync(processes, "-u", runAs, ct);
            var gid = await IdAsync(processes, "-g", runAs, ct);
            if (uid is null || gid is null)
                return (null, $"--run-as {runAs}: no such user");
            if (uid == 0)
                return (null, $"--run-as {runAs}: that is root; harnesses must run as an unprivileged user");
            if (uid == await IdAsync(processes, "-u", Environment.UserName, ct))
                return (
                    null,
                    $"--run-as {runAs}: that is the agent's own user; create a separate one (deploy/systemd/perf-agent@.service)"
                );
            user = new RunAsUser(runAs, uid.Value, gid.Value);
        }
        var isolation = new HarnessIsolation
        {
            RunAs = user,
            Sandbox = sandbox,
            Hidden = hidden,
        };
        if (sandbox)
        {
            if (PathLookup.Find("bwrap") is null)
                return (null, "--sandbox needs bubblewrap: apt-get install bubblewrap");
            var probe = isolation.Wrap(new ProcessSpec("true", [], "/"), []) with
            {
                Timeout = TimeSpan.FromSeconds(30),
            };
            var result = await processes.RunAsync(probe, ct: ct);
            if (!result.Succeeded)
                return (
                    null,
                    $"--sandbox: bubblewrap cannot create a sandbox here (exit {result.ExitCode}): {string.Join(' ', result.Tail)}"
                        + " (bwrap needs user namespaces, e.g. sysctl kernel.unprivileged_userns_clone=1, unless the agent runs as root)"
                );
        }
        return (isolation, null);
    }

    private static async Task<int?> IdAsync(ProcessRunner processes, string flag, string user, CancellationToken ct)
    {
        var result = await processes.RunAsync(
            new ProcessSpec("id", [flag, "--", user], "/") { CaptureStdout = true },
            ct: ct
        );
        return
            result.Succeeded
            && int.TryParse(result.Stdout.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var id)
            ? id
            : null;
    }
}
