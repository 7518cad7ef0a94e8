using PerfService.Demo;

namespace PerfService.Agents.Tests.Demo;

/// <summary>The demo's plan from the noise its calibration measured: benchtime, planted steps, rounds, and what it says.</summary>
public class DemoPlanTests
{
    private static double Sigma(double percent) => Math.Log(1 + percent / 100);

    [Fact]
    public void A_quiet_machine_gets_the_real_25_percent_steps_and_no_notes()
    {
        var plan = DemoPlanner.Plan(full: true, [new("20ms", Sigma(2), Sigma(3))]);
        Assert.Equal(("20ms", 25, 25, 25, DemoPlanner.QuietRounds), (plan.Benchtime, plan.MainStepPercent, plan.PullRequestStepPercent, plan.TargetStepPercent, plan.PullRequestRounds));
        Assert.Empty(plan.Notes);
    }

    [Fact]
    public void Noise_too_high_for_25_percent_grows_the_steps_to_five_sigma_and_says_so()
    {
        // ±10% run-to-run: a 25% step is 2.3σ, which neither the detector nor the pull request's margin can tell.
        var plan = DemoPlanner.Plan(full: true, [new("20ms", Sigma(20), Sigma(8)), new("100ms", Sigma(10), Sigma(4))]);
        Assert.Equal("100ms", plan.Benchtime);
        Assert.True(Math.Log(1 + plan.MainStepPercent / 100.0) >= 5 * Sigma(10));
        Assert.Equal(65, plan.MainStepPercent);
        Assert.Equal(65, plan.TargetStepPercent);
        Assert.Equal(25, plan.PullRequestStepPercent);
        Assert.Equal(DemoPlanner.NoisyRounds, plan.PullRequestRounds);
        Assert.Contains(plan.Notes, n => n.Contains("at -benchtime=20ms the noise was ±20.0%") && n.Contains("at -benchtime=100ms ±10.0%")
                                         && n.Contains("the history runs at -benchtime=100ms"));
        Assert.Contains(plan.Notes, n => n.Contains("+65% instead of +25%") && n.Contains("±10.0%"));
    }

    [Fact]
    public void Fast_keeps_its_5x_steps_unless_the_noise_is_beyond_even_those()
    {
        var fast = DemoPlanner.Plan(full: false, [new("20ms", Sigma(30), Sigma(30))]);
        Assert.Equal((400, 400, 25), (fast.MainStepPercent, fast.PullRequestStepPercent, fast.TargetStepPercent));
        Assert.Equal(DemoPlanner.MaxStepPercent, DemoPlanner.StepFor(Sigma(200), 25));
    }

    [Fact]
    public void A_longer_benchtime_that_measured_a_little_noisier_is_kept_and_plants_from_its_own_noise()
    {
        // The calibration of this machine that failed: the quieter figure at 20ms was luck, not a quieter history.
        var plan = DemoPlanner.Plan(full: true, [new("20ms", Sigma(14.4), Sigma(14.4)), new("100ms", Sigma(17.9), Sigma(19.4))]);
        Assert.Equal("100ms", plan.Benchtime);
        Assert.Contains(plan.Notes, n => n.Contains("at -benchtime=100ms ±19.4%") && n.Contains("the history runs at -benchtime=100ms"));
        // 5σ of ±17.9% (BenchmarkRead) and ±19.4% (BenchmarkProjection), in steps of 5%.
        Assert.Equal((130, 145), (plan.MainStepPercent, plan.PullRequestStepPercent));
    }

    [Fact]
    public void A_longer_benchtime_that_measured_more_than_twice_the_noise_is_not_kept_and_the_notes_say_it_was_tried()
    {
        var plan = DemoPlanner.Plan(full: true, [new("20ms", Sigma(8), Sigma(8)), new("100ms", Sigma(17), Sigma(17))]);
        Assert.Equal("20ms", plan.Benchtime);
        Assert.Contains(plan.Notes, n => n.Contains("at -benchtime=100ms ±17.0%") && n.Contains("the history runs at -benchtime=20ms"));
        Assert.Equal(50, plan.MainStepPercent);
    }

    [Fact]
    public void The_demo_manifest_runs_rivulet_on_its_host_runtime_and_planting_keeps_that()
    {
        var manifest = System.Text.Json.Nodes.JsonNode.Parse("""
            { "suites": [ { "name": "rivulet" }, { "name": "eventstore", "quickArgs": ["-benchtime=100ms"] } ] }
            """)!.AsObject();
        DemoScenario.TuneManifest(manifest, "50ms");
        DemoScenario.Plant(manifest, "rivulet", "WithRetries=25");
        var rivulet = manifest["suites"]![0]!;
        Assert.Equal("none", (string?)rivulet["env"]!["PERF_BENCH_OTHER_RUNTIMES"]);
        Assert.Equal("WithRetries=25", (string?)rivulet["env"]!["PERF_SLOWDOWN"]);
        Assert.Equal("-benchtime=50ms", (string?)manifest["suites"]![1]!["quickArgs"]![0]);
        DemoScenario.Plant(manifest, "eventstore", "BenchmarkRead=25");
        DemoScenario.Plant(manifest, "eventstore", null);
        Assert.Null(manifest["suites"]![1]!["env"]);
    }

    [Theory]
    [InlineData("20ms", 3.0, "20ms")]    // quiet enough already
    [InlineData("20ms", 6.0, "50ms")]    // (6/4.6)² ≈ 1.7× → 34 ms
    [InlineData("20ms", 9.0, "100ms")]   // ≈ 3.9× → 78 ms
    [InlineData("20ms", 40.0, "100ms")]  // beyond what the demo's time allows: the longest
    public void A_longer_benchtime_is_chosen_to_average_out_steady_time_slicing(string current, double noisePercent, string expected) =>
        Assert.Equal(expected, DemoPlanner.LongerBenchtime(current, Sigma(noisePercent), DemoPlanner.NoiseLimit(25)));

    [Fact]
    public void The_calibration_spread_pools_a_family_s_cases_about_their_own_levels()
    {
        // Two cases at very different levels, each ±~2%: the pooled spread is the 2%, not the gap between the cases.
        double[] simple = [400, 408, 392, 404, 396, 400];
        double[] byType = [30000, 30600, 29400, 30300, 29700, 30000];
        Assert.InRange(DemoNoise.LogSpread([simple, byType]), 0.005, 0.03);
        Assert.True(double.IsNaN(DemoNoise.LogSpread([[1.0, 2.0]])));
    }
}
