using System.Globalization;
using PerfService.Agents.Isolation;

namespace PerfService.Agents.Profiling;

/// <summary>
/// Whether <c>perf record</c> may sample a harness at all. A harness that is not root (<c>--run-as</c>, or
/// <c>--sandbox</c>, which drops every capability, or an agent that is not root itself) opens perf events as an
/// unprivileged user, which the kernel allows only while <c>kernel.perf_event_paranoid</c> is 2 or lower (2: its own
/// user-space code, all a benchmark needs). Debian's kernels default to 3, which refuses it; perf's own error then
/// reads like a broken install, so the agent says which setting to change before it builds anything.
/// </summary>
public static class PerfAccess
{
    public const string ParanoidFile = "/proc/sys/kernel/perf_event_paranoid";
    public const int UnprivilegedMax = 2;

    /// <summary>Why perf cannot sample this harness, or null when it can (or the level cannot be read: perf then
    /// speaks for itself).</summary>
    /// <param name="paranoid">The text of <see cref="ParanoidFile"/>.</param>
    public static string? Refusal(string? paranoid, HarnessIsolation isolation, bool agentIsRoot)
    {
        if (!int.TryParse(paranoid?.Trim(), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var level))
            return null;
        var unprivileged =
            isolation.RunAs is { } user ? $"it runs as {user.Name} (--run-as)"
            : isolation.Sandbox ? "it runs in the sandbox without capabilities (--sandbox)"
            : agentIsRoot ? null
            : "the agent is not root";
        if (unprivileged is null || level <= UnprivilegedMax)
            return null;
        return $"perf may not sample this benchmark: kernel.perf_event_paranoid is {level} on this machine, and the harness is not root ({unprivileged}); "
            + $"perf needs kernel.perf_event_paranoid {UnprivilegedMax} or lower for that. On the agent's machine, as root: "
            + $"echo 'kernel.perf_event_paranoid = {UnprivilegedMax}' > /etc/sysctl.d/60-perf-agent.conf && sysctl --system";
    }

    /// <summary>Reads the machine's level (null where there is no such file).</summary>
    public static string? ReadParanoid(string file) => File.Exists(file) ? File.ReadAllText(file) : null;
}
