namespace PerfService.Tests.Deploy;

/// <summary>deploy/systemd: the units parse as INI with the usual sections, the service requires its migration, the
/// migration is one-shot, and the agent template runs its instance's profile with the benchmark-machine settings.</summary>
public sealed class SystemdUnitTests
{
    private static IReadOnlyDictionary<string, List<(string Key, string Value)>> Unit(string name) =>
        DeployFiles.LoadUnit(Path.Combine(DeployFiles.SystemdDir, name));

    public static TheoryData<string> Units()
    {
        var data = new TheoryData<string>();
        foreach (var file in Directory.EnumerateFiles(DeployFiles.SystemdDir, "*.service").Order(StringComparer.Ordinal))
            data.Add(Path.GetFileName(file));
        return data;
    }

    [Fact]
    public void TheExpectedUnitsExist()
    {
        foreach (var name in new[] { "perfservice.service", "perfservice-background.service", "perfservice-migrate.service", "perf-agent@.service" })
            Assert.True(File.Exists(Path.Combine(DeployFiles.SystemdDir, name)), $"deploy/systemd/{name} is missing");
    }

    [Theory]
    [MemberData(nameof(Units))]
    public void EveryUnitHasUnitServiceAndInstallSections(string name)
    {
        var unit = Unit(name);
        foreach (var section in new[] { "Unit", "Service", "Install" }) Assert.True(unit.ContainsKey(section), $"{name}: no [{section}]");
        Assert.NotNull(unit.Value("Unit", "Description"));
        Assert.NotEmpty(unit.Values("Service", "ExecStart"));
        Assert.NotNull(unit.Value("Install", "WantedBy"));
        // The JIT needs writable+executable memory: this hardening option would break every .NET process.
        Assert.NotEqual("yes", unit.Value("Service", "MemoryDenyWriteExecute"));
    }

    [Fact]
    public void TheServiceRequiresAndFollowsTheMigration()
    {
        var unit = Unit("perfservice.service");
        Assert.Contains("perfservice-migrate.service", Words(unit.Values("Unit", "Requires")));
        Assert.Contains("perfservice-migrate.service", Words(unit.Values("Unit", "After")));
        Assert.Equal("/etc/perfservice/perfservice.env", unit.Value("Service", "EnvironmentFile"));
        Assert.Contains(unit.Values("Service", "ExecStart"), e => e.Contains("PerfService.dll", StringComparison.Ordinal));
        Assert.Equal("on-failure", unit.Value("Service", "Restart"));
        Assert.True(unit.Value("Service", "DynamicUser") == "yes" || unit.Value("Service", "User") is not null, "runs as root");
        foreach (var (key, value) in new[] { ("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("PrivateTmp", "yes"), ("ProtectHome", "yes") })
            Assert.Equal(value, unit.Value("Service", key));
    }

    [Fact]
    public void TheBackgroundUnitRunsTheBackgroundRoleOnItsOwnPortAfterTheMigration()
    {
        var unit = Unit("perfservice-background.service");
        Assert.Contains("perfservice-migrate.service", Words(unit.Values("Unit", "Requires")));
        Assert.Equal("/etc/perfservice/perfservice.env", unit.Value("Service", "EnvironmentFile"));
        // Command-line settings win over the environment file, whose Background__Roles says web once the roles are split.
        var exec = Assert.Single(unit.Values("Service", "ExecStart"));
        Assert.Contains("PerfService.dll --Background:Roles=background", exec);
        Assert.Contains("--urls=http://127.0.0.1:5081", exec);
        // Requests keep priority over analysis on a shared host.
        Assert.Equal("10", unit.Value("Service", "Nice"));
        Assert.Contains("ASPNETCORE_URLS=http://127.0.0.1:5080", File.ReadAllText(Path.Combine(DeployFiles.SystemdDir, "perfservice.env.example")));
        Assert.Contains("#Background__Roles=web", File.ReadAllText(Path.Combine(DeployFiles.SystemdDir, "perfservice.env.example")));
        Assert.NotEqual(Unit("perfservice.service").Value("Service", "StateDirectory"), unit.Value("Service", "StateDirectory"));
    }

    [Fact]
    public void TheMigrationIsOneShotAndStaysActive()
    {
        var unit = Unit("perfservice-migrate.service");
        Assert.Equal("oneshot", unit.Value("Service", "Type"));
        Assert.Equal("yes", unit.Value("Service", "RemainAfterExit"));
        Assert.Equal("/etc/perfservice/perfservice.env", unit.Value("Service", "EnvironmentFile"));
        var exec = Assert.Single(unit.Values("Service", "ExecStart"));
        Assert.Contains("PerfService.Migrations.dll", exec);
        // The password stays out of the process list: the migrations get PERF_DB, not --connection.
        Assert.DoesNotContain("--connection", exec);
        Assert.Contains("PERF_DB", exec);
    }

    [Fact]
    public void TheAgentTemplateRunsItsInstancesProfileOnTunedCores()
    {
        var unit = Unit("perf-agent@.service");
        var exec = Assert.Single(unit.Values("Service", "ExecStart"));
        var words = exec.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        Assert.Contains("agent", words);
        Assert.Equal("%i", words[Array.IndexOf(words, "--profile") + 1]);
        var options = DeployFiles.AgentOptions();
        Assert.All(words.Where(w => w.StartsWith("--", StringComparison.Ordinal)), w => Assert.Contains(w, options));
        Assert.DoesNotContain("--token", words);
        // The token from a credential only this unit can read; suites as another user, in the sandbox.
        Assert.Equal("%d/token", words[Array.IndexOf(words, "--token-file") + 1]);
        Assert.Contains("token:/etc/perf-agent/token", unit.Values("Service", "LoadCredential"));
        Assert.Equal("perf-bench", words[Array.IndexOf(words, "--run-as") + 1]);
        Assert.Contains("--sandbox", words);
        Assert.Equal("on-failure", unit.Value("Service", "Restart"));
        foreach (var key in new[] { "CPUAffinity", "Nice", "IOSchedulingClass", "User" })
            Assert.False(string.IsNullOrEmpty(unit.Value("Service", key)), $"perf-agent@.service: no {key}");
        Assert.Contains("/etc/perf-agent/perf-agent.env", unit.Values("Service", "EnvironmentFile"));
        Assert.Equal("yes", unit.Value("Service", "NoNewPrivileges"));
    }

    [Fact]
    public void TheEnvironmentExamplesDefineWhatTheUnitsNeed()
    {
        var service = DeployFiles.EnvKeys(Path.Combine(DeployFiles.SystemdDir, "perfservice.env.example"));
        Assert.Contains("ConnectionStrings__Perf", service);
        Assert.Contains("ASPNETCORE_URLS", service);
        var agent = DeployFiles.EnvKeys(Path.Combine(DeployFiles.SystemdDir, "perf-agent.env.example"));
        Assert.Contains("PERF_SERVER", agent);
        Assert.DoesNotContain("PERF_TOKEN", agent); // the token lives in its own file (--token-file)
    }

    private static IEnumerable<string> Words(IEnumerable<string> values) => values.SelectMany(v => v.Split(' ', StringSplitOptions.RemoveEmptyEntries));
}
