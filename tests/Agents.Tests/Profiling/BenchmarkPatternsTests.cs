using PerfService.Agents.Profiling;

namespace PerfService.Agents.Tests.Profiling;

public sealed class BenchmarkPatternsTests
{
    [Theory]
    [InlineData("perfbench.BenchmarkRead/simple", "perfbench", "^BenchmarkRead$/^simple$")]
    [InlineData("github.com/acme/store.BenchmarkAppend/batch=10", "github.com/acme/store", "^BenchmarkAppend$/^batch=10$")]
    [InlineData("BenchmarkX", null, "^BenchmarkX$")]
    [InlineData("perfbench.BenchmarkWebApp/get(1.5)/vus=100", "perfbench", @"^BenchmarkWebApp$/^get\(1\.5\)$/^vus=100$")]
    public void Go_names_become_the_package_and_an_anchored_quoted_regex_a_level(string stored, string? package, string bench) =>
        Assert.Equal((package, bench), BenchmarkPatterns.Go(stored));

    [Theory]
    [InlineData("context_switch/raw_fiber_switch", @"^context_switch/raw_fiber_switch$")]
    [InlineData("throughput/spawn 1m (batched)", @"^throughput/spawn 1m \(batched\)$")]
    [InlineData("a.b*c|d", @"^a\.b\*c\|d$")]
    public void Criterion_names_become_an_anchored_quoted_regex(string stored, string filter)
    {
        Assert.Equal(filter, BenchmarkPatterns.Criterion(stored));
        // .NET reads these escapes as Rust's regex crate does: the filter matches the name and nothing longer.
        Assert.Matches(filter, stored);
        Assert.DoesNotMatch(filter, stored + "x");
    }

    [Theory]
    [InlineData("Rivulet.Benchmarks.CoreOperatorsBenchmarks.Sequential", "Rivulet.Benchmarks.CoreOperatorsBenchmarks.Sequential")]
    [InlineData("Rivulet.Benchmarks.AdvancedFeaturesBenchmarks.WithRetries [Quick]", "Rivulet.Benchmarks.AdvancedFeaturesBenchmarks.WithRetries")]
    [InlineData("Rivulet.Benchmarks.X.Run [Quick-net8.0]", "Rivulet.Benchmarks.X.Run")]
    [InlineData("A.B.C(Size=10) [Job-ABC]", "A.B.C(Size=10)")]
    public void BenchmarkDotNet_names_lose_the_measuring_job_the_filter_never_sees(string stored, string filter) =>
        Assert.Equal(filter, BenchmarkPatterns.Bdn(stored));

    [Fact]
    public void A_hostile_name_stays_one_literal_pattern()
    {
        var (package, bench) = BenchmarkPatterns.Go("p.Benchmark$(touch x)/.*|'; rm -rf /");

        Assert.Equal("p", package);
        Assert.Equal(@"^Benchmark\$\(touch x\)$/^\.\*\|'; rm -rf $/^$", bench);
    }
}
