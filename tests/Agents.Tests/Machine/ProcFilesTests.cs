using PerfService.Agents.Machine;

namespace PerfService.Agents.Tests.Machine;

public sealed class ProcFilesTests
{
    // Two sockets × two cores × two threads: 8 processors, 4 physical cores. Core ids repeat across sockets.
    private static string CpuInfo(string model) => string.Join("\n\n", Enumerable.Range(0, 8).Select(i => $"""
        processor	: {i}
        vendor_id	: GenuineIntel
        model		: 60
        model name	: {model}
        physical id	: {i / 4}
        siblings	: 4
        core id		: {i % 4 / 2}
        cpu cores	: 2
        flags		: fpu vme de pse
        """)) + "\n";

    [Fact]
    public void Cpuinfo_counts_distinct_physical_and_core_id_pairs()
    {
        var info = ProcFiles.ParseCpuInfo(CpuInfo("Intel(R) Core(TM) i7-4790K CPU @ 4.00GHz"));
        Assert.Equal("Intel(R) Core(TM) i7-4790K CPU @ 4.00GHz", info.Model);
        Assert.Equal(4, info.PhysicalCores);
    }

    [Fact]
    public void Cpuinfo_without_topology_leaves_cores_unknown()
    {
        const string arm = "processor\t: 0\nBogoMIPS\t: 48.00\nCPU implementer\t: 0x41\n\nprocessor\t: 1\nBogoMIPS\t: 48.00\n";
        var info = ProcFiles.ParseCpuInfo(arm);
        Assert.Null(info.Model);
        Assert.Null(info.PhysicalCores);
    }

    [Fact]
    public void Ryzen_with_smt()
    {
        var blocks = Enumerable.Range(0, 32).Select(i =>
            $"processor\t: {i}\nmodel name\t: AMD Ryzen 9 9950X 16-Core Processor\nphysical id\t: 0\ncore id\t\t: {i % 16}\n");
        var info = ProcFiles.ParseCpuInfo(string.Join("\n", blocks));
        Assert.Equal(16, info.PhysicalCores);
        Assert.Equal("AMD Ryzen 9 9950X 16-Core Processor", info.Model);
    }

    [Fact]
    public void Meminfo_total_in_bytes() =>
        Assert.Equal(65_536_000L * 1024, ProcFiles.ParseMemTotal("MemTotal:       65536000 kB\nMemFree:        1234 kB\n"));

    [Theory]
    [InlineData("NAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\nPRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\n", "Ubuntu 24.04.1 LTS")]
    [InlineData("NAME='Alpine Linux'\nVERSION_ID=3.20.3\n", "Alpine Linux 3.20.3")]
    [InlineData("# nothing\n", null)]
    public void Os_release(string text, string? expected) => Assert.Equal(expected, ProcFiles.ParseOsRelease(text));

    [Theory]
    [InlineData("0.52 0.58 0.59 1/467 12345\n", 0.52)]
    [InlineData("{ 2.13 1.98 1.87 }", 2.13)]
    public void Load_average_first_field(string text, double expected) => Assert.Equal(expected, ProcFiles.ParseLoadAverage(text));

    [Theory]
    [InlineData("go", "go version go1.23.4 linux/amd64\n", "go1.23.4")]
    [InlineData("cargo", "cargo 1.83.0 (5ffbef321 2024-10-29)\n", "1.83.0")]
    [InlineData("rustc", "rustc 1.83.0 (90b35a623 2024-11-26)", "1.83.0")]
    [InlineData("dotnet", "\n10.0.100\n", "10.0.100")]
    public void Tool_versions(string tool, string output, string expected) =>
        Assert.Equal(expected, ProcFiles.ParseToolVersion(tool, output));

    [Fact]
    public async Task This_host_is_detected()
    {
        var machine = await new MachineDetector(new PerfService.Agents.Processes.ProcessRunner()).DetectAsync();
        Assert.Equal(Environment.ProcessorCount, machine.LogicalCores);
        Assert.InRange(machine.PhysicalCores, 1, machine.LogicalCores);
        Assert.False(string.IsNullOrWhiteSpace(machine.CpuModel));
        if (OperatingSystem.IsLinux())
        {
            Assert.True(machine.MemoryBytes > 0);
            Assert.NotNull(machine.LoadAverage);
            Assert.True(machine.Toolchains.ContainsKey("dotnet"), "dotnet runs these tests, so it is on PATH");
        }
    }
}
