using PerfService.Agents.Machine;
using PerfService.Agents.Processes;
using PerfService.Agents.Tests.Support;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Tests.Machine;

public sealed class MachineProfileTests
{
    private static readonly ProfileCatalog _catalog = ProfileCatalog.Load(TestPaths.ProfilesFile);

    private static MachineInfo Host(string cpu, int physical, int logical) =>
        new(cpu, physical, logical, 1L << 34, "Linux", "6.8", new Dictionary<string, string>());

    [Fact]
    public void The_repository_declares_the_three_profiles()
    {
        Assert.Equal(["ryzen-9950x", "i7-4790k", "m1-pro"], _catalog.Profiles.Select(p => p.Name));
        var m1 = _catalog.Find("M1-PRO")!;
        Assert.Equal((10, 10, "arm64"), (m1.PhysicalCores, m1.LogicalCores, m1.Arch));
    }

    [Theory]
    [InlineData("ryzen-9950x", "AMD Ryzen 9 9950X 16-Core Processor", 16, 32, "x64")]
    [InlineData("i7-4790k", "Intel(R) Core(TM) i7-4790K CPU @ 4.00GHz", 4, 8, "x64")]
    [InlineData("m1-pro", "Apple M1 Pro", 10, 10, "arm64")]
    public void Each_profile_matches_its_own_hardware_and_no_other(string name, string cpu, int physical, int logical, string arch)
    {
        var machine = Host(cpu, physical, logical);
        foreach (var profile in _catalog.Profiles)
        {
            var reason = profile.Mismatch(machine, arch);
            if (profile.Name == name) Assert.Null(reason);
            else Assert.StartsWith($"simulated: this host is {cpu}", reason);
        }
    }

    [Fact]
    public void Same_cpu_with_other_core_count_is_a_mismatch()
    {
        var reason = _catalog.Find("ryzen-9950x")!.Mismatch(Host("AMD Ryzen 9 9950X 16-Core Processor", 8, 16), "x64");
        Assert.Equal("simulated: this host is AMD Ryzen 9 9950X 16-Core Processor (8C/16T x64), not AMD Ryzen 9 9950X (16C/32T x64)", reason);
    }

    [Fact]
    public async Task This_host_against_each_profile()
    {
        var machine = await new MachineDetector(new ProcessRunner()).DetectAsync();
        var matches = _catalog.Profiles.Where(p => p.Mismatch(machine, MachineDetector.Arch) is null).ToList();
        // This host can be at most one of them; the reason for the others names this host's CPU.
        Assert.True(matches.Count <= 1);
        foreach (var profile in _catalog.Profiles.Except(matches))
            Assert.Contains($"this host is {machine.CpuModel}", profile.Mismatch(machine, MachineDetector.Arch));
    }

    [Fact]
    public void Profiles_file_is_found_above_a_folder_or_given_explicitly()
    {
        Assert.Equal(TestPaths.ProfilesFile, ProfileCatalog.Locate(null, Path.Combine(TestPaths.RepoRoot, "src", "Agents")));
        Assert.Null(ProfileCatalog.Locate("/nonexistent/profiles.json"));
        Assert.Null(ProfileCatalog.Locate(null, "/"));
    }
}
