using PerfService.Agents.Isolation;
using PerfService.Agents.Profiling;

namespace PerfService.Agents.Tests.Profiling;

public sealed class PerfAccessTests
{
    private static readonly HarnessIsolation _sandbox = new() { Sandbox = true };
    private static readonly HarnessIsolation _runAs = new() { RunAs = new RunAsUser("perf-bench", 990, 990) };

    [Theory]
    [InlineData("-1\n")]
    [InlineData("1\n")]
    [InlineData("2\n")]
    public void Up_to_2_any_harness_may_sample_its_own_code(string paranoid)
    {
        Assert.Null(PerfAccess.Refusal(paranoid, _sandbox, agentIsRoot: true));
        Assert.Null(PerfAccess.Refusal(paranoid, _runAs, agentIsRoot: true));
        Assert.Null(PerfAccess.Refusal(paranoid, HarnessIsolation.None, agentIsRoot: false));
    }

    [Fact]
    public void At_3_a_harness_that_is_not_root_is_refused_naming_the_setting_and_the_value_it_needs()
    {
        var sandboxed = PerfAccess.Refusal("3\n", _sandbox, agentIsRoot: true);
        Assert.Contains("kernel.perf_event_paranoid is 3", sandboxed);
        Assert.Contains("(it runs in the sandbox without capabilities (--sandbox))", sandboxed);
        Assert.Contains("kernel.perf_event_paranoid 2 or lower", sandboxed);
        Assert.Contains("echo 'kernel.perf_event_paranoid = 2' > /etc/sysctl.d/60-perf-agent.conf && sysctl --system", sandboxed);
        Assert.Contains("it runs as perf-bench (--run-as)", PerfAccess.Refusal("3", _runAs, agentIsRoot: true));
        Assert.Contains("the agent is not root", PerfAccess.Refusal("4", HarnessIsolation.None, agentIsRoot: false));
        // Root with every capability is not held back by the level.
        Assert.Null(PerfAccess.Refusal("3", HarnessIsolation.None, agentIsRoot: true));
    }

    [Fact]
    public void A_level_that_cannot_be_read_leaves_it_to_perf()
    {
        Assert.Null(PerfAccess.Refusal(null, _sandbox, agentIsRoot: true));
        Assert.Null(PerfAccess.Refusal("", _sandbox, agentIsRoot: true));
    }
}
