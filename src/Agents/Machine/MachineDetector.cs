using System.Globalization;
using System.Runtime.InteropServices;
using PerfService.Agents.Processes;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Machine;

/// <summary>Finds out what machine the agent runs on: /proc and /etc on Linux, sysctl on macOS.</summary>
public sealed class MachineDetector(ProcessRunner processes)
{
    private static readonly string[] _toolchains = ["dotnet", "cargo", "rustc", "go"];

    public static string Arch => RuntimeInformation.OSArchitecture.ToString().ToLowerInvariant();

    public async Task<MachineInfo> DetectAsync(CancellationToken ct = default)
    {
        var toolchains = await DetectToolchainsAsync(ct);
        return OperatingSystem.IsMacOS() ? await DetectMacAsync(toolchains, ct) : DetectLinux(toolchains);
    }

    private static MachineInfo DetectLinux(IReadOnlyDictionary<string, string> toolchains)
    {
        var cpu = ProcFiles.ParseCpuInfo(Read("/proc/cpuinfo") ?? "");
        var kernel = Read("/proc/sys/kernel/osrelease")?.Trim() ?? Environment.OSVersion.Version.ToString();
        return new MachineInfo(
            CpuModel: cpu.Model ?? RuntimeInformation.ProcessArchitecture.ToString(),
            PhysicalCores: cpu.PhysicalCores ?? Environment.ProcessorCount,
            LogicalCores: Environment.ProcessorCount,
            MemoryBytes: ProcFiles.ParseMemTotal(Read("/proc/meminfo") ?? "") ?? 0,
            Os: ProcFiles.ParseOsRelease(Read("/etc/os-release") ?? "") ?? RuntimeInformation.OSDescription,
            Kernel: kernel,
            Toolchains: toolchains,
            CpuGovernor: ReadGovernor(),
            LoadAverage: ReadLoadAverage()
        );
    }

    private async Task<MachineInfo> DetectMacAsync(IReadOnlyDictionary<string, string> toolchains, CancellationToken ct)
    {
        async Task<string?> Sysctl(string name) => await CaptureAsync("sysctl", ["-n", name], ct);
        int? Int(string? s) =>
            int.TryParse(s, NumberStyles.Integer, CultureInfo.InvariantCulture, out var v) ? v : null;
        var memory = long.TryParse(
            await Sysctl("hw.memsize"),
            NumberStyles.Integer,
            CultureInfo.InvariantCulture,
            out var m
        )
            ? m
            : 0;
        return new MachineInfo(
            CpuModel: await Sysctl("machdep.cpu.brand_string") ?? "unknown",
            PhysicalCores: Int(await Sysctl("hw.physicalcpu")) ?? Environment.ProcessorCount,
            LogicalCores: Int(await Sysctl("hw.logicalcpu")) ?? Environment.ProcessorCount,
            MemoryBytes: memory,
            Os: $"macOS {await CaptureAsync("sw_vers", ["-productVersion"], ct)}".Trim(),
            Kernel: await CaptureAsync("uname", ["-r"], ct) ?? "",
            Toolchains: toolchains,
            CpuGovernor: null,
            LoadAverage: ProcFiles.ParseLoadAverage(await Sysctl("vm.loadavg") ?? "")
        );
    }

    /// <summary>Read again before each suite: the load changes, and it is recorded with each run.</summary>
    public static double? ReadLoadAverage() => ProcFiles.ParseLoadAverage(Read("/proc/loadavg") ?? "");

    public static string? ReadGovernor() => Read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")?.Trim();

    private async Task<IReadOnlyDictionary<string, string>> DetectToolchainsAsync(CancellationToken ct)
    {
        var found = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (var tool in _toolchains)
        {
            if (PathLookup.Find(tool) is null)
                continue;
            var output = await CaptureAsync(tool, tool == "go" ? ["version"] : ["--version"], ct);
            if (output is not null && ProcFiles.ParseToolVersion(tool, output) is { } version)
                found[tool] = version;
        }
        return found;
    }

    private async Task<string?> CaptureAsync(string file, string[] args, CancellationToken ct)
    {
        try
        {
            var spec = new ProcessSpec(file, args, Environment.CurrentDirectory)
            {
                Timeout = TimeSpan.FromSeconds(30),
                CaptureStdout = true,
                Environment = new Dictionary<string, string?>
                {
                    ["DOTNET_NOLOGO"] = "1",
                    ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
                },
            };
            var result = await processes.RunAsync(spec, ct: ct);
            return result.Succeeded ? result.Stdout.Trim() : null;
        }
        catch (ProcessStartException)
        {
            return null;
        }
    }

    private static string? Read(string path)
    {
        try
        {
            return File.Exists(path) ? File.ReadAllText(path) : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
