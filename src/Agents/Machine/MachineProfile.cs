using System.Text.Json;
using System.Text.RegularExpressions;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Machine;

/// <summary>A machine class results are comparable within, as declared in deploy/profiles.json.</summary>
public sealed record MachineProfile(string Name, string CpuModel, int PhysicalCores, int LogicalCores, string Arch)
{
    public string? Description { get; init; }

    public string Summary => $"{CpuModel} ({PhysicalCores}C/{LogicalCores}T {Arch})";

    /// <summary>Null when <paramref name="machine"/> is this profile's hardware; otherwise the human reason
    /// ("simulated: this host is …, not …") that the agent prints and posts with every run.</summary>
    public string? Mismatch(MachineInfo machine, string arch)
    {
        var matches =
            Normalize(machine.CpuModel).Contains(Normalize(CpuModel), StringComparison.OrdinalIgnoreCase)
            && machine.PhysicalCores == PhysicalCores
            && machine.LogicalCores == LogicalCores
            && string.Equals(arch, Arch, StringComparison.OrdinalIgnoreCase);
        return matches
            ? null
            : $"simulated: this host is {machine.CpuModel} ({machine.PhysicalCores}C/{machine.LogicalCores}T {arch}), not {Summary}";
    }

    // /proc/cpuinfo says "Intel(R) Core(TM) i7-4790K CPU @ 4.00GHz"; the profile says "Intel Core i7-4790K".
    private static string Normalize(string model) =>
        Regex.Replace(Regex.Replace(model, @"\((R|TM|C)\)", "", RegexOptions.IgnoreCase), @"\s+", " ").Trim();
}

public sealed record ProfileCatalog(IReadOnlyList<MachineProfile> Profiles)
{
    public const string RelativePath = "deploy/profiles.json";

    public MachineProfile? Find(string name) =>
        Profiles.FirstOrDefault(p => string.Equals(p.Name, name, StringComparison.OrdinalIgnoreCase));

    public static ProfileCatalog Load(string file)
    {
        var catalog = JsonSerializer.Deserialize<ProfileCatalog>(File.ReadAllText(file), JsonSerializerOptions.Web);
        if (catalog?.Profiles is null || catalog.Profiles.Count == 0)
            throw new FormatException($"{file}: expected {{ \"profiles\": [ ... ] }} with at least one profile");
        return catalog;
    }

    /// <summary>--profiles FILE when given, else deploy/profiles.json above the current directory or the
    /// binary.</summary>
    public static string? Locate(string? explicitFile, params string[] startDirectories)
    {
        if (explicitFile is not null)
            return File.Exists(explicitFile) ? Path.GetFullPath(explicitFile) : null;
        foreach (var start in startDirectories)
        {
            for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
            {
                var candidate = Path.Combine(dir.FullName, RelativePath);
                if (File.Exists(candidate))
                    return candidate;
            }
        }
        return null;
    }
}
