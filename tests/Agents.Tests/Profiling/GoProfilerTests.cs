using PerfService.Agents.Profiling;

namespace PerfService.Agents.Tests.Profiling;

public sealed class GoProfilerTests
{
    [Theory]
    // A suite's short duration would leave a dozen samples: the profiler's 2 s comes last and wins.
    [InlineData(new[] { "-benchtime=100ms" }, new[] { "-benchtime=100ms", "-benchtime", "2s" })]
    [InlineData(new[] { "-benchtime", "20ms", "-cpu", "1" }, new[] { "-benchtime", "20ms", "-cpu", "1", "-benchtime", "2s" })]
    [InlineData(new string[0], new[] { "-benchtime", "2s" })]
    // A count of iterations is what one run may do: the suite's, after the profiler's, wins.
    [InlineData(new[] { "-benchtime=1x" }, new[] { "-benchtime", "2s", "-benchtime=1x" })]
    [InlineData(new[] { "-benchtime", "50x" }, new[] { "-benchtime", "2s", "-benchtime", "50x" })]
    public void The_profile_runs_at_least_two_seconds_unless_the_suite_counts_iterations(string[] suite, string[] profiled) =>
        Assert.Equal(profiled, GoProfiler.WithBenchtime(suite));

    [Theory]
    // What go test prints when -bench matches nothing: it passes, and its profile may still hold start-up samples.
    [InlineData("Unit success-% better=higher\nPASS\nok  \tperfbench\t0.206s\n", false)]
    [InlineData("goos: linux\npkg: perfbench\nBenchmarkRead/simple-2   \t  52321\t     22915 ns/op\nPASS\nok  \tperfbench\t2.4s\n", true)]
    public void Only_a_printed_result_says_the_profiled_benchmark_ran(string output, bool ran) =>
        Assert.Equal(ran, GoProfiler.RanABenchmark(output));
}
