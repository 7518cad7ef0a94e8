using PerfService.Agents.Processes;
using PerfService.Agents.Suites;

namespace PerfService.Agents.Profiling;

/// <summary>The profiler of each harness that has one (the json and counters harnesses run arbitrary commands: there
/// is no benchmark to single out).</summary>
public static class ProfileRunners
{
    public static SuiteRunners CreateDefault(ProcessRunner processes) =>
        new([new BdnProfiler(processes), new GoProfiler(processes), new CriterionProfiler(processes)]);
}
