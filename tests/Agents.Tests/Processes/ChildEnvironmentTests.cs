using PerfService.Agents.Processes;

namespace PerfService.Agents.Tests.Processes;

public sealed class ChildEnvironmentTests
{
    [Theory]
    [InlineData("PATH")]
    [InlineData("HOME")]
    [InlineData("LC_ALL")]
    [InlineData("TMPDIR")]
    [InlineData("PERF_SLOWDOWN")]
    [InlineData("DOTNET_ROOT")]
    [InlineData("NUGET_PACKAGES")]
    [InlineData("GOCACHE")]
    [InlineData("GOFLAGS")]
    [InlineData("CARGO_HOME")]
    [InlineData("RUSTUP_TOOLCHAIN")]
    [InlineData("RUSTC_WRAPPER")]
    public void Toolchain_variables_are_passed(string name) => Assert.True(ChildEnvironment.IsPassed(name));

    [Theory]
    [InlineData("PERF_TOKEN")]
    [InlineData("PERF_SERVER")]
    [InlineData("PERF_AGENT_ARGS")]
    [InlineData("GITHUB_TOKEN")]
    [InlineData("AWS_SECRET_ACCESS_KEY")]
    [InlineData("SSH_AUTH_SOCK")]
    [InlineData("ConnectionStrings__Perf")]
    [InlineData("GIT_ASKPASS")]
    public void Secrets_and_the_agents_configuration_are_not(string name) => Assert.False(ChildEnvironment.IsPassed(name));
}
