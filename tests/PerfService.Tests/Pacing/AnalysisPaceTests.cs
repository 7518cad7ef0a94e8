using PerfService.Core.Pacing;

namespace PerfService.Tests.Pacing;

public class AnalysisPaceTests
{
    private static readonly PaceOptions Options = new(TimeSpan.FromMilliseconds(250), TimeSpan.FromMilliseconds(250), TimeSpan.FromSeconds(2));

    private static List<TimeSpan> Uploads(params int[] ms) => [.. ms.Select(m => TimeSpan.FromMilliseconds(m))];

    [Fact]
    public void No_uploads_or_fast_ones_never_pause()
    {
        Assert.Equal(Pace.Free, AnalysisPace.Next(Pace.Free, [], Options));
        Assert.Equal(Pace.Free, AnalysisPace.Next(Pace.Free, Uploads(40, 60, 80, 120, 240, 90, 70, 50, 30, 20), Options));
    }

    [Fact]
    public void Slow_uploads_double_the_pause_up_to_the_bound()
    {
        var slow = Uploads(100, 200, 300, 400, 500, 600, 700, 800, 900, 1000);
        var pauses = new List<double>();
        var pace = Pace.Free;
        for (var i = 0; i < 6; i++)
        {
            pace = AnalysisPace.Next(pace, slow, Options);
            Assert.True(pace.Yielding);
            pauses.Add(pace.Pause.TotalMilliseconds);
        }
        Assert.Equal([250, 500, 1000, 2000, 2000, 2000], pauses);
    }

    [Fact]
    public void Once_uploads_are_fast_again_the_pause_halves_to_nothing()
    {
        var pace = new Pace(TimeSpan.FromSeconds(2), true);
        var fast = Uploads(10, 20, 30, 40, 50);
        var pauses = new List<double>();
        while (pace.Pause > TimeSpan.Zero)
        {
            pace = AnalysisPace.Next(pace, fast, Options);
            Assert.False(pace.Yielding);
            pauses.Add(pace.Pause.TotalMilliseconds);
        }
        Assert.Equal([1000, 500, 250, 0], pauses);
    }

    [Fact]
    public void The_slow_end_decides_and_a_few_slow_uploads_on_a_quiet_service_do_not()
    {
        // Nine fast and one slow: the 90th percentile is fast. Two slow in ten: it is slow.
        Assert.False(AnalysisPace.Next(Pace.Free, Uploads(10, 10, 10, 10, 10, 10, 10, 10, 10, 900), Options).Yielding);
        Assert.True(AnalysisPace.Next(Pace.Free, Uploads(10, 10, 10, 10, 10, 10, 10, 10, 900, 900), Options).Yielding);
        // Fewer uploads than the minimum: not a load, whatever they took.
        Assert.False(AnalysisPace.Next(Pace.Free, Uploads(900, 900, 900, 900), Options).Yielding);
    }

    [Fact]
    public void A_target_of_zero_turns_yielding_off()
    {
        var off = Options with { IngestTarget = TimeSpan.Zero };
        Assert.Equal(Pace.Free, AnalysisPace.Next(new Pace(TimeSpan.FromSeconds(1), true), Uploads(900, 900, 900, 900, 900, 900), off));
    }

    [Fact]
    public void Behind_it_keeps_pace_on_every_thread_and_yields_again_once_caught_up()
    {
        var options = Options with { BehindRuns = 50 };
        var slow = Uploads(100, 200, 300, 400, 500, 600, 700, 800, 900, 1000);
        var pace = AnalysisPace.Next(Pace.Free, slow, options, lastBatchRuns: 10);
        Assert.Equal(new Pace(TimeSpan.FromMilliseconds(250), true), pace);
        // The batch after the pause took 50 runs: they were waiting, so no pause, and not on one thread.
        pace = AnalysisPace.Next(pace, slow, options, lastBatchRuns: 50);
        Assert.Equal(Pace.Free, pace);
        Assert.Equal(new Pace(TimeSpan.FromMilliseconds(250), true), AnalysisPace.Next(pace, slow, options, lastBatchRuns: 49));
        // 0: the pause grows however many runs wait.
        Assert.Equal(TimeSpan.FromMilliseconds(500),
            AnalysisPace.Next(new Pace(TimeSpan.FromMilliseconds(250), true), slow, Options, lastBatchRuns: 256).Pause);
    }
}
