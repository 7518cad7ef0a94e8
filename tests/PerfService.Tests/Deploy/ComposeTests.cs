using System.Text.RegularExpressions;

namespace PerfService.Tests.Deploy;

/// <summary>deploy/compose: PostgreSQL with a health check, a one-shot migration the service waits for, an agent example.</summary>
public sealed class ComposeTests
{
    private static readonly string ComposeFile = Path.Combine(DeployFiles.ComposeDir, "compose.yaml");
    private static readonly YamlDotNet.RepresentationModel.YamlNode Compose = DeployFiles.LoadYaml(ComposeFile).Single();

    [Fact]
    public void PostgresIsVersion15WithAVolumeAndAHealthCheck()
    {
        var postgres = Compose.At("services", "postgres");
        Assert.StartsWith("postgres:15", postgres.Str("image"));
        Assert.NotEmpty(postgres.Words("healthcheck", "test"));
        var volume = Assert.Single(postgres.Seq("volumes")).Str()!;
        Assert.EndsWith(":/var/lib/postgresql/data", volume);
        Assert.NotNull(Compose.At("volumes", volume.Split(':')[0]));
    }

    [Fact]
    public void TheMigrationRunsOnceAndTheServiceWaitsForItToSucceed()
    {
        var migrate = Compose.At("services", "migrate");
        Assert.Equal("no", migrate.Str("restart") ?? "no");
        Assert.Contains(migrate.Words("entrypoint").Concat(migrate.Words("command")), w => w.EndsWith("PerfService.Migrations.dll", StringComparison.Ordinal));
        Assert.NotNull(migrate.Str("environment", "PERF_DB"));
        Assert.Equal("service_healthy", migrate.Str("depends_on", "postgres", "condition"));

        var service = Compose.At("services", "perfservice");
        Assert.Equal("service_completed_successfully", service.Str("depends_on", "migrate", "condition"));
        Assert.Equal("service_healthy", service.Str("depends_on", "postgres", "condition"));
        Assert.NotNull(service.Str("environment", "ConnectionStrings__Perf"));
        Assert.Contains(service.Words("healthcheck", "test"), w => w.Contains("/readyz", StringComparison.Ordinal));
        // Same image: the migrations of the release that is about to run.
        Assert.Equal(migrate.Str("image"), service.Str("image"));
    }

    [Fact]
    public void TheWebAndBackgroundRolesRunAsTwoServicesOfOneImage()
    {
        var web = Compose.At("services", "perfservice");
        var background = Compose.At("services", "perfservice-background");
        Assert.Equal("web", web.Str("environment", "Background__Roles"));
        Assert.Equal("background", background.Str("environment", "Background__Roles"));
        Assert.Equal(web.Str("image"), background.Str("image"));
        Assert.Equal(web.Str("environment", "ConnectionStrings__Perf"), background.Str("environment", "ConnectionStrings__Perf"));
        Assert.Equal("service_completed_successfully", background.Str("depends_on", "migrate", "condition"));
        Assert.Contains(background.Words("healthcheck", "test"), w => w.Contains("/readyz", StringComparison.Ordinal));
        // Only the web role is published; the workers scale by replicas.
        Assert.Null(background.At("ports"));
        Assert.Contains("PERF_BACKGROUND_REPLICAS", background.Str("deploy", "replicas"));
    }

    [Fact]
    public void TheAgentExampleUsesRealOptionsAndATokenFromTheEnvironment()
    {
        var agent = Compose.At("services", "agent");
        Assert.Equal("service_healthy", agent.Str("depends_on", "perfservice", "condition"));
        var command = agent.Words("command");
        Assert.Equal("agent", command[0]);
        var options = DeployFiles.AgentOptions();
        Assert.All(command.Where(w => w.StartsWith("--", StringComparison.Ordinal)), w => Assert.Contains(w, options));
        Assert.DoesNotContain("--token", command);
        Assert.NotNull(agent.Str("environment", "PERF_TOKEN"));
    }

    [Fact]
    public void EveryVariableTheComposeFileUsesIsInTheEnvExample()
    {
        var used = Regex.Matches(File.ReadAllText(ComposeFile), @"\$\{([A-Za-z_][A-Za-z0-9_]*)").Select(m => m.Groups[1].Value).ToHashSet();
        Assert.NotEmpty(used);
        var defined = DeployFiles.EnvKeys(Path.Combine(DeployFiles.ComposeDir, ".env.example"));
        Assert.All(used, v => Assert.Contains(v, defined));
    }
}
