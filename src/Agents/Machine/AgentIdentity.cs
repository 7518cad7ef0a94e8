using System.Globalization;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Machine;

/// <summary>Who the agent is to the service: its name, profile, the machine found, and whether that machine is
/// really the profile's (when not, the agent only simulates the profile and every run says so).</summary>
public sealed record AgentIdentity(
    string Name,
    string Profile,
    MachineInfo Machine,
    string Arch,
    string? MismatchReason
)
{
    public bool ProfileMismatch => MismatchReason is not null;

    /// <summary>The run's environment: the machine, plus what changes from run to run (load, governor,
    /// pinning).</summary>
    public IReadOnlyDictionary<string, string> RunEnvironment(double? load, string? governor, string? cpus)
    {
        var env = new SortedDictionary<string, string>(StringComparer.Ordinal)
        {
            ["cpu"] = Machine.CpuModel,
            ["physicalCores"] = Machine.PhysicalCores.ToString(CultureInfo.InvariantCulture),
            ["logicalCores"] = Machine.LogicalCores.ToString(CultureInfo.InvariantCulture),
            ["memoryBytes"] = Machine.MemoryBytes.ToString(CultureInfo.InvariantCulture),
            ["os"] = Machine.Os,
            ["kernel"] = Machine.Kernel,
            ["arch"] = Arch,
            ["agent"] = Name,
        };
        foreach (var (tool, version) in Machine.Toolchains)
            env[$"toolchain.{tool}"] = version;
        if ((governor ?? Machine.CpuGovernor) is { } g)
            env["governor"] = g;
        if (load is { } l)
            env["loadAverage"] = l.ToString("0.00", CultureInfo.InvariantCulture);
        if (!string.IsNullOrWhiteSpace(cpus))
            env["cpus"] = cpus;
        if (MismatchReason is not null)
            env["profileMismatch"] = MismatchReason;
        return env;
    }
}
