using PerfService.Core.Results;
using PerfService.Core.Suites;
using PerfService.Core.Targets;

namespace PerfService.Tests.Targets;

public class TargetEvaluatorTests
{
    private static BenchmarkResult R(string name, string measure, string unit, double? value, string? job = null,
        IReadOnlyList<KeyValuePair<string, string>>? parameters = null, string? error = null) => new()
    {
        Name = name, Measure = measure, Unit = unit, Value = value, Job = job, Parameters = parameters ?? [], Error = error,
        Direction = measure == Measures.Throughput ? Direction.HigherIsBetter : Direction.LowerIsBetter,
    };

    private static TargetDeclaration T(string benchmark, string op, double value, string measure = "time", string? unit = null, string? baseline = null) =>
        new() { Name = "t", Benchmark = benchmark, Op = op, Value = value, Measure = measure, Unit = unit, Baseline = baseline };

    [Fact]
    public void Absolute_targets_pass_and_fail()
    {
        var results = new[] { R("context_switch/raw_fiber_switch", "time", "ns", 42), R("context_switch/thread_switch", "time", "ns", 900) };
        var outcomes = TargetEvaluator.Evaluate([T("context_switch/raw_fiber_switch", "<", 50), T("*thread_switch", "<=", 500)], results);
        Assert.Equal(2, outcomes.Count);
        Assert.Equal(TargetStatus.Pass, outcomes[0].Status);
        Assert.Equal(42, outcomes[0].Actual);
        Assert.Equal(50, outcomes[0].Limit);
        Assert.Equal("context_switch/raw_fiber_switch", outcomes[0].Benchmark);
        Assert.Equal(TargetStatus.Fail, outcomes[1].Status);
        Assert.Contains("not <=", outcomes[1].Reason);
    }

    [Fact]
    public void Units_are_converted()
    {
        var results = new[]
        {
            R("Fib", "time", "ns", 1_500_000),
            R("Fib", "alloc", "B", 300 * 1024),
            R("Queue", Measures.Throughput, "jobs/s", 12_000_000),
        };
        var outcomes = TargetEvaluator.Evaluate(
        [
            T("Fib", "<", 2, unit: "ms"),
            T("Fib", "<", 1, unit: "s"),
            T("Fib", "<", 1600, unit: "us"),
            T("Fib", "<", 256, "alloc", "KB"),
            T("Queue", ">", 10, Measures.Throughput, "M jobs/s"),
            T("Queue", ">", 13_000, Measures.Throughput, "K jobs/s"),
        ], results);
        Assert.Equal([TargetStatus.Pass, TargetStatus.Pass, TargetStatus.Pass, TargetStatus.Fail, TargetStatus.Pass, TargetStatus.Fail],
            outcomes.Select(o => o.Status));
        Assert.Equal(1.5, outcomes[0].Actual!.Value, 9);
        Assert.Equal("ms", outcomes[0].Unit);
        Assert.Equal(300, outcomes[3].Actual!.Value, 9);
        Assert.Equal(12, outcomes[4].Actual!.Value, 9);
    }

    [Theory]
    [InlineData(1, "ms", "ns", 1e6)]
    [InlineData(2, "µs", "ns", 2000)]
    [InlineData(1, "MB", "KB", 1024)]
    [InlineData(1, "GB/s", "MB/s", 1024)]
    [InlineData(5, "Mops/s", "ops/ms", 5000)]
    [InlineData(3, "M", "elements/s", 3e6)]
    [InlineData(7, "Gets/s", "gets/s", 7)]
    public void Unit_conversion_table(double value, string from, string to, double expected)
    {
        Assert.True(Units.TryConvert(value, from, to, out var converted));
        Assert.Equal(expected, converted, 9);
    }

    [Fact]
    public void Incompatible_units_and_missing_results_are_not_measured()
    {
        var results = new[] { R("Fib", "time", "ns", 10), R("Broken", "time", "ns", null, error: "threw"), R("Empty", "time", "ns", null) };
        var outcomes = TargetEvaluator.Evaluate(
        [
            T("Fib", "<", 1, unit: "KB"),
            T("Nope", "<", 1),
            T("Broken", "<", 1),
            T("Empty", "<", 1),
            T("Fib", "=", 1),
            T("Fib", "<", 1, "alloc"),
        ], results);
        Assert.All(outcomes, o => Assert.Equal(TargetStatus.NotMeasured, o.Status));
        Assert.Contains("cannot convert", outcomes[0].Reason);
        Assert.Null(outcomes[1].Benchmark);
        Assert.Contains("no time result matches 'Nope'", outcomes[1].Reason);
        Assert.Contains("threw", outcomes[2].Reason);
        Assert.Contains("no value", outcomes[3].Reason);
        Assert.Contains("unknown operator", outcomes[4].Reason);
        Assert.Contains("no alloc result", outcomes[5].Reason);
    }

    [Fact]
    public void A_pattern_covers_every_parameter_case_and_job()
    {
        var results = new[]
        {
            R("Bench.Run", "time", "ns", 10, ".NET 8.0", [new("N", "10")]),
            R("Bench.Run", "time", "ns", 60, ".NET 9.0", [new("N", "10")]),
            R("Bench.Other", "time", "ns", 1),
        };
        var outcomes = TargetEvaluator.Evaluate([T("bench.run", "<", 50)], results);
        Assert.Equal(2, outcomes.Count);
        Assert.Equal("Bench.Run(N=10) [.NET 8.0]", outcomes[0].Benchmark);
        Assert.Equal(TargetStatus.Pass, outcomes[0].Status);
        Assert.Equal(TargetStatus.Fail, outcomes[1].Status);
        // A key pattern narrows it down.
        Assert.Single(TargetEvaluator.Evaluate([T("*[.NET 9.0]", "<", 50)], results));
    }

    [Fact]
    public void Relative_targets_pair_by_job_and_parameters()
    {
        KeyValuePair<string, string>[] n10 = [new("N", "10")], n100 = [new("N", "100")];
        var results = new[]
        {
            R("Pool.NoAdvanced", "time", "ns", 100, "net8", n10),
            R("Pool.NoAdvanced", "time", "ns", 1000, "net8", n100),
            R("Pool.NoAdvanced", "time", "ns", 50, "net9", n10),
            R("Pool.WithTracing", "time", "ns", 105, "net8", n10),
            R("Pool.WithTracing", "time", "ns", 1200, "net8", n100),
            R("Pool.WithTracing", "time", "ns", 54, "net9", n10),
        };
        var outcomes = TargetEvaluator.Evaluate([T("*With*", "<=", 1.10, baseline: "*NoAdvanced*")], results);
        Assert.Equal(3, outcomes.Count);
        Assert.Equal("Pool.NoAdvanced(N=10) [net8]", outcomes[0].Baseline);
        Assert.Equal(1.05, outcomes[0].Actual!.Value, 9);
        Assert.Equal(TargetStatus.Pass, outcomes[0].Status);
        Assert.Equal("Pool.NoAdvanced(N=100) [net8]", outcomes[1].Baseline);
        Assert.Equal(1.2, outcomes[1].Actual!.Value, 9);
        Assert.Equal(TargetStatus.Fail, outcomes[1].Status);
        Assert.Equal("Pool.NoAdvanced(N=10) [net9]", outcomes[2].Baseline);
        Assert.Equal(1.08, outcomes[2].Actual!.Value, 9);
        Assert.Equal(100, outcomes[0].BaselineValue);
        Assert.True(outcomes[0].IsRelative);
    }

    [Fact]
    public void Relative_targets_without_a_unique_baseline_are_not_measured()
    {
        var results = new[] { R("A.With", "time", "ns", 10), R("B.NoAdvanced", "time", "ns", 10), R("C.NoAdvanced", "time", "ns", 10) };
        var ambiguous = Assert.Single(TargetEvaluator.Evaluate([T("*With*", "<=", 1.1, baseline: "*NoAdvanced*")], results));
        Assert.Equal(TargetStatus.NotMeasured, ambiguous.Status);
        Assert.Contains("ambiguous", ambiguous.Reason);
        var missing = Assert.Single(TargetEvaluator.Evaluate([T("*With*", "<=", 1.1, baseline: "*Nothing*")], results));
        Assert.Contains("no time result matches baseline", missing.Reason);
    }

    [Fact]
    public void A_value_whose_interval_straddles_the_limit_is_at_risk_not_failed()
    {
        // 20 samples around 50 ns with ±10% noise: the median's interval is about ±3%.
        var rng = new Random(5);
        double[] Around(double centre) => Enumerable.Range(0, 20).Select(_ => centre * (1 + 0.1 * (2 * rng.NextDouble() - 1))).ToArray();
        BenchmarkResult WithSamples(string name, double centre)
        {
            var samples = Around(centre);
            return R(name, "time", "ns", samples.Order().ElementAt(10)) with { Samples = samples };
        }
        var results = new[] { WithSamples("OnTheLimit", 50), WithSamples("WellInside", 40), WithSamples("WellBeyond", 60) };
        var outcomes = TargetEvaluator.Evaluate([T("OnTheLimit", "<", 50.5), T("WellInside", "<", 50.5), T("WellBeyond", "<", 50.5)], results);
        Assert.Equal(TargetStatus.AtRisk, outcomes[0].Status);
        Assert.Contains("at risk", outcomes[0].Reason);
        Assert.True(outcomes[0].ActualLower < 50.5 && outcomes[0].ActualUpper > 50.5);
        Assert.Equal(TargetStatus.Pass, outcomes[1].Status);
        Assert.Equal(TargetStatus.Fail, outcomes[2].Status);
        // Without samples there is no interval: the point decides, as before.
        Assert.Equal(TargetStatus.Pass, TargetEvaluator.Evaluate([T("X", "<", 50.5)], [R("X", "time", "ns", 50)])[0].Status);
    }
}
