using System.Text.RegularExpressions;
using PerfService.Core.Contracts;
using PerfService.Data.Entities;

namespace PerfService.AgentJobs;

/// <summary>
/// Whether a machine is what its profile declares. A mismatch is allowed (the demo simulates three profiles on one
/// host) but never hidden: the agent is flagged and so is every run it posts.
/// </summary>
public static partial class ProfileMatch
{
    /// <summary>Null when the machine matches; otherwise why not.</summary>
    public static string? Explain(HardwareProfile profile, MachineInfo machine)
    {
        var problems = new List<string>();
        if (profile.CpuModel is { } expected && !Normalize(machine.CpuModel).Contains(Normalize(expected)))
            problems.Add($"CPU is '{machine.CpuModel}', not '{expected}'");
        if (profile.LogicalCores is { } logical && machine.LogicalCores != logical)
            problems.Add($"{machine.LogicalCores} logical cores, not {logical}");
        return problems.Count == 0 ? null : $"simulated {profile.Name}: " + string.Join("; ", problems);
    }

    // "Intel(R) Core(TM) i7-4790K CPU @ 4.00GHz" must match "Intel Core i7-4790K".
    private static string Normalize(string s) =>
        Spaces().Replace(Marks().Replace(s.ToLowerInvariant(), " "), " ").Trim();

    [GeneratedRegex(@"\((r|tm)\)|\bcpu\b|@.*$")]
    private static partial Regex Marks();

    [GeneratedRegex(@"\s+")]
    private static partial Regex Spaces();
}
