using PerfService.Core.Reports;

namespace PerfService.Tests.Reports;

public class CommitStatusSummaryTests
{
    [Fact]
    public void Pending_while_a_profile_runs_even_with_regressions_so_far()
    {
        var status = CommitStatusSummary.From(SampleReports.MixedProfiles());
        Assert.Equal(CommitStatusState.Pending, status.State);
        Assert.StartsWith("Benchmarking on i7-4790k; so far 2 regressions", status.Description);
    }

    [Fact]
    public void Pending_while_waiting_for_a_maintainers_approval_whatever_else_the_report_holds()
    {
        var status = CommitStatusSummary.From(SampleReports.Typical() with { AwaitingApprovalLabel = "perf:run" });
        Assert.Equal(CommitStatusState.Pending, status.State);
        Assert.Equal("Awaiting approval by a maintainer (label perf:run or Approve in PerfService)", status.Description);
        var longLabel = CommitStatusSummary.From(SampleReports.Typical() with { AwaitingApprovalLabel = new string('x', 50) });
        Assert.True(longLabel.Description.Length <= CommitStatusSummary.MaxDescriptionLength);
    }

    [Fact]
    public void Failure_while_an_unacknowledged_regression_or_failed_target_remains()
    {
        var status = CommitStatusSummary.From(SampleReports.Typical());
        Assert.Equal(CommitStatusState.Failure, status.State);
        Assert.Equal("2 regressions, 1 improvement, 3 unchanged, 1 inconclusive, 1 failed target; acknowledge in PerfService to accept", status.Description);
    }

    [Fact]
    public void Acknowledging_everything_turns_it_green()
    {
        var report = SampleReports.Typical();
        report = report with
        {
            Rows = [.. report.Rows.Select(r => r with { Acknowledged = true })],
            Targets = [.. report.Targets.Select(t => t with { Acknowledged = true })],
        };
        Assert.Equal(CommitStatusState.Success, CommitStatusSummary.From(report).State);
    }

    [Fact]
    public void An_empty_finished_report_is_a_success() =>
        Assert.Equal(new CommitStatusSummary(CommitStatusState.Success, "No benchmark results to compare"),
            CommitStatusSummary.From(SampleReports.Empty() with { PendingProfiles = [] }));

    [Fact]
    public void The_description_fits_in_140_characters()
    {
        var report = SampleReports.Empty() with { PendingProfiles = [.. Enumerable.Range(0, 40).Select(i => $"profile-{i}")] };
        var status = CommitStatusSummary.From(report);
        Assert.Equal(CommitStatusSummary.MaxDescriptionLength, status.Description.Length);
        Assert.EndsWith("…", status.Description);
    }
}
