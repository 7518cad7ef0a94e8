using PerfService.Demo;

namespace PerfService.Agents.Tests.Demo;

/// <summary>The demo's measure of a planted step against the run-to-run noise before it.</summary>
public class DemoNoiseTests
{
    [Fact]
    public void A_quiet_series_resolves_a_25_percent_step_and_measures_it()
    {
        double[] before = [100, 102, 98, 101, 99, 100, 103, 97, 100, 101, 99];
        double[] after = [125, 127, 123, 126, 124, 125, 128, 122, 125, 126, 124, 125, 127];
        var noise = DemoNoise.Measure(before, after)!;
        Assert.InRange(noise.Step, 0.24, 0.26);
        Assert.InRange(noise.Noise, 0.005, 0.03);
        Assert.True(noise.Reliable(0.25));
        Assert.Equal((11, 13), (noise.Before, noise.After));
    }

    [Fact]
    public void Noise_of_30_percent_makes_a_25_percent_step_unreliable()
    {
        // Run-to-run spread of a loaded 2-core machine: whole runs 30% off either way.
        double[] before = [100, 140, 75, 105, 130, 70, 98, 135, 72, 110, 95];
        double[] after = [125, 175, 94, 131, 162, 88, 122, 169, 90, 137, 119, 126, 150];
        var noise = DemoNoise.Measure(before, after)!;
        Assert.True(noise.Noise > 0.2);
        Assert.False(noise.Reliable(0.25));
        Assert.True(noise.Resolvable > 0.25);
    }

    [Fact]
    public void Too_few_points_measure_nothing() =>
        Assert.Null(DemoNoise.Measure([1, 2], [3, 4, 5]));
}
