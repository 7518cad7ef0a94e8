using PerfService.Core.Contracts;
using PerfService.Core.Disturbances;
using PerfService.Core.Reports;
using PerfService.Tests.Reports;

namespace PerfService.Tests.Disturbances;

public sealed class DisturbedRoundsTests
{
    private static readonly Disturbance Busy = new(true, 2, 4, 2, 0.425, 0.01, 1.2);
    private static readonly Disturbance Quiet = new(false, 1, 4, 2, 0.02, 0, 0);

    private static RoundRun Run(long id, RunRole role, Disturbance? d) => new(id, role, d);

    [Fact]
    public void Disturbed_rounds_are_left_out_when_both_sides_keep_two_quiet_ones()
    {
        var choice = DisturbedRounds.Choose([
            Run(1, RunRole.Base, Quiet), Run(2, RunRole.Head, Busy), Run(3, RunRole.Head, Quiet),
            Run(4, RunRole.Base, Quiet), Run(5, RunRole.Base, Busy), Run(6, RunRole.Head, Quiet)]);
        Assert.Equal([2L, 5L], choice.LeftOut.Order());
        Assert.Equal("2 rounds left out as disturbed (other processes used 85% of a core)", choice.Say());
    }

    [Fact]
    public void With_too_few_quiet_rounds_on_either_side_every_round_is_kept_and_said()
    {
        // Base keeps two quiet rounds but head only one: leaving out head's alone would compare a quiet base with it.
        var choice = DisturbedRounds.Choose([
            Run(1, RunRole.Base, Quiet), Run(2, RunRole.Head, Busy), Run(3, RunRole.Head, Quiet), Run(4, RunRole.Base, Quiet)]);
        Assert.Empty(choice.LeftOut);
        Assert.Equal("1 of 4 rounds disturbed (other processes used 85% of a core) and kept: fewer than 2 undisturbed rounds a side would remain",
            choice.Say());
    }

    [Fact]
    public void Rounds_nobody_measured_or_none_disturbed_say_nothing()
    {
        Assert.Null(DisturbedRounds.Choose([Run(1, RunRole.Head, null), Run(2, RunRole.Head, Quiet)]).Say());
        Assert.Empty(DisturbedRounds.Choose([]).LeftOut);
    }

    [Theory]
    [InlineData(false, 0, 10, false)]
    [InlineData(true, 0, 0, false)] // the profile's first measured run: nothing to compare it with
    [InlineData(true, 4, 10, true)]
    [InlineData(true, 5, 10, false)] // half the machine's runs are disturbed: that is its usual state
    public void A_disturbed_run_stays_out_of_series_only_while_disturbance_is_the_exception(bool disturbed, int recent, int measured, bool leftOut) =>
        Assert.Equal(leftOut, DisturbedRounds.LeaveOutOfSeries(disturbed, recent, measured));

    [Theory]
    [InlineData(0.099, 0.049, null, false)]
    [InlineData(0.10, 0, null, true)]
    [InlineData(0, 0.05, null, true)]
    [InlineData(0, 0, 1L, true)]
    [InlineData(0, 0, 0L, false)]
    public void The_rule_at_its_thresholds(double other, double steal, long? throttle, bool disturbed) =>
        Assert.Equal(disturbed, DisturbanceRule.IsDisturbed(other, steal, throttle));

    [Fact]
    public void The_comment_says_what_each_profile_met_under_the_summary()
    {
        var report = SampleReports.Typical() with { Disturbances = [new ReportDisturbance("i7-4790k", "1 round left out as disturbed (CPU steal 7%)")] };
        var text = CommentRenderer.Render(report);
        Assert.Contains("\n\n_`i7-4790k`: 1 round left out as disturbed (CPU steal 7%)._\n\nHead ", text, StringComparison.Ordinal);
        Assert.DoesNotContain("disturbed", CommentRenderer.Render(SampleReports.Typical()), StringComparison.Ordinal);
    }
}
