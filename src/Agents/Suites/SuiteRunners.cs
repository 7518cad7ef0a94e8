using PerfService.Agents.Processes;
using PerfService.Core.Suites;

namespace PerfService.Agents.Suites;

/// <summary>The runner for each harness.</summary>
public sealed class SuiteRunners(IEnumerable<ISuiteRunner> runners)
{
    private readonly Dictionary<Harness, ISuiteRunner> _byHarness = runners.ToDictionary(r => r.Harness);

    public static SuiteRunners CreateDefault(ProcessRunner processes) =>
        new([
            new BdnRunner(processes),
            new CriterionRunner(processes),
            new GoBenchRunner(processes),
            new JsonCommandRunner(processes),
            new CounterTableRunner(processes),
        ]);

    public ISuiteRunner For(Harness harness) =>
        _byHarness.TryGetValue(harness, out var runner)
            ? runner
            : throw new InvalidOperationException($"no runner for harness {harness}");
}
