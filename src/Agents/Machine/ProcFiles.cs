using System.Globalization;

namespace PerfService.Agents.Machine;

/// <summary>Pure parsers of the Linux /proc and /etc texts the agent reads, so they can be tested on sample
/// strings.</summary>
public static class ProcFiles
{
    public sealed record CpuInfo(string? Model, int? PhysicalCores);

    /// <summary>Model from the first "model name"; physical cores = distinct (physical id, core id) pairs.
    /// Null cores when the file has no topology (some ARM kernels, containers): the caller falls back.</summary>
    public static CpuInfo ParseCpuInfo(string text)
    {
        string? model = null;
        var cores = new HashSet<(string, string)>();
        string? physical = null,
            core = null;
        foreach (var raw in text.Split('\n'))
        {
            var line = raw.TrimEnd('\r');
            if (line.Trim().Length == 0)
            {
                // A blank line ends one processor's block.
                if (core is not null)
                    cores.Add((physical ?? "0", core));
                physical = core = null;
                continue;
            }
            var colon = line.IndexOf(':');
            if (colon < 0)
                continue;
            var key = line[..colon].Trim();
            var value = line[(colon + 1)..].Trim();
            switch (key)
            {
                case "model name" or "Model" or "cpu model" when model is null && value.Length > 0:
                    model = value;
                    break;
                case "physical id":
                    physical = value;
                    break;
                case "core id":
                    core = value;
                    break;
            }
        }
        if (core is not null)
            cores.Add((physical ?? "0", core));
        return new CpuInfo(model, cores.Count > 0 ? cores.Count : null);
    }

    /// <summary>MemTotal in bytes (the file gives kB).</summary>
    public static long? ParseMemTotal(string text)
    {
        foreach (var line in text.Split('\n'))
        {
            if (!line.StartsWith("MemTotal:", StringComparison.Ordinal))
                continue;
            var parts = line["MemTotal:".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (
                parts.Length > 0
                && long.TryParse(parts[0], NumberStyles.Integer, CultureInfo.InvariantCulture, out var kb)
            )
                return kb * 1024;
        }
        return null;
    }

    /// <summary>PRETTY_NAME, else NAME + VERSION_ID, from /etc/os-release (shell-style quoted values).</summary>
    public static string? ParseOsRelease(string text)
    {
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var line in text.Split('\n'))
        {
            var eq = line.IndexOf('=');
            if (eq <= 0 || line.TrimStart().StartsWith('#'))
                continue;
            values[line[..eq].Trim()] = line[(eq + 1)..].Trim().Trim('"', '\'');
        }
        if (values.TryGetValue("PRETTY_NAME", out var pretty) && pretty.Length > 0)
            return pretty;
        if (values.TryGetValue("NAME", out var name))
            return values.TryGetValue("VERSION_ID", out var version) ? $"{name} {version}" : name;
        return null;
    }

    /// <summary>The 1-minute load average: the first field of /proc/loadavg, or of macOS's "{ 1.23 1.10 0.99
    /// }".</summary>
    public static double? ParseLoadAverage(string text)
    {
        var first = text.Split([' ', '\t', '\n', '{', '}'], StringSplitOptions.RemoveEmptyEntries).FirstOrDefault();
        return
            first is not null && double.TryParse(first, NumberStyles.Float, CultureInfo.InvariantCulture, out var load)
            ? load
            : null;
    }

    /// <summary>The version a toolchain prints: "go version go1.23.4 linux/amd64" → "go1.23.4",
    /// "cargo 1.83.0 (5ffbef321 2024-10-29)" → "1.83.0", "10.0.100" → "10.0.100".</summary>
    public static string? ParseToolVersion(string tool, string output)
    {
        var line = output.Split('\n').Select(l => l.Trim()).FirstOrDefault(l => l.Length > 0);
        if (line is null)
            return null;
        var words = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return tool switch
        {
            "go" when words.Length >= 3 && words[0] == "go" && words[1] == "version" => words[2],
            "cargo" or "rustc" when words.Length >= 2 && words[0] == tool => words[1],
            _ => line,
        };
    }
}
