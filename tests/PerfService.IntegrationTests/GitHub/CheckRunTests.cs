using PerfService.Core.Reports;
using PerfService.Core.Comparison;
using PerfService.GitHub;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>
/// The check run <c>PerfService / project</c> of a GitHub App install, published to the fake GitHub (which applies
/// GitHub's rules: only an App writes checks, a completed run needs a conclusion, summaries end at 65,535 characters).
/// </summary>
public class CheckRunTests(GitHubAppFixture fixture) : IClassFixture<GitHubAppFixture>
{
    [Fact]
    public async Task The_check_run_is_created_in_progress_updated_and_concluded_not_duplicated()
    {
        var id = await fixture.CreateProjectAsync("check-flow", "octo/check-flow");
        var head = GitHubFixture.Sha("check-flow");
        var regression = Reports.Regressed("check-flow", 1, head);

        fixture.Reports.Set(id, regression with { PendingProfiles = ["i7-4790k", "m1-pro"] });
        await fixture.PublishAsync(id, 1);
        var run = Assert.Single(fixture.GitHub.CheckRunsOf("octo/check-flow", head));
        Assert.Equal(("PerfService / check-flow", "in_progress", null), (run.Name, run.Status, run.Conclusion));
        Assert.Contains("**Profiles done:** ryzen-9950x · **left:** i7-4790k, m1-pro", run.Summary, StringComparison.Ordinal);
        Assert.Equal("https://perf.example.com/projects/check-flow/pulls/1", run.DetailsUrl);
        Assert.Empty(run.Actions);

        fixture.Reports.Set(id, regression with { PendingProfiles = ["m1-pro"] });
        await fixture.PublishAsync(id, 1);
        run = Assert.Single(fixture.GitHub.CheckRunsOf("octo/check-flow", head));
        Assert.Equal(("in_progress", 1), (run.Status, run.Updates));
        Assert.Contains("**left:** m1-pro", run.Summary, StringComparison.Ordinal);

        fixture.Reports.Set(id, regression);
        await fixture.PublishAsync(id, 1);
        run = Assert.Single(fixture.GitHub.CheckRunsOf("octo/check-flow", head));
        Assert.Equal(("completed", "failure"), (run.Status, run.Conclusion));
        Assert.Equal(new FakeCheckAction("Acknowledge", "Accept these regressions (write access)", "acknowledge"), Assert.Single(run.Actions));
        // The same report as the comment.
        var comment = Assert.Single(fixture.GitHub.CommentsOn("octo/check-flow", 1));
        Assert.Equal(comment.Body, run.Summary);
        Assert.Equal("failure", fixture.GitHub.StatusesOf("octo/check-flow", head).Last().State);

        // Acknowledged: success, and the button is gone. GitHub keeps a completed run as it was, so the new conclusion
        // is a new run (the newest run of a name is the one GitHub shows); the failed one is never changed.
        var failed = run;
        fixture.Reports.Set(id, Reports.For("check-flow", 1, head, Reports.Row("Demo.Parse(Size: 100)", Outcome.Regression, acknowledged: true)));
        await fixture.PublishAsync(id, 1);
        var runs = fixture.GitHub.CheckRunsOf("octo/check-flow", head);
        Assert.Equal(2, runs.Count);
        Assert.Equal((failed.Id, "completed", "failure", failed.Updates), (runs[0].Id, runs[0].Status, runs[0].Conclusion, runs[0].Updates));
        run = runs[1];
        Assert.Equal(("completed", "success"), (run.Status, run.Conclusion));
        Assert.Empty(run.Actions);
        Assert.Empty(fixture.GitHub.RefusedCheckUpdates);

        // A new head gets a check run of its own; the old one is left as it was.
        var next = GitHubFixture.Sha("check-flow-2");
        fixture.Reports.Set(id, Reports.For("check-flow", 1, next, Reports.Row("Demo.Parse(Size: 100)", Outcome.Inconclusive)));
        await fixture.PublishAsync(id, 1);
        var second = Assert.Single(fixture.GitHub.CheckRunsOf("octo/check-flow", next));
        Assert.Equal(("completed", "neutral"), (second.Status, second.Conclusion));
        Assert.NotEqual(run.Id, second.Id);
        Assert.Equal("success", fixture.GitHub.CheckRunsOf("octo/check-flow", head).Last().Conclusion);
    }

    [Fact]
    public async Task A_huge_report_fits_the_summary_limit()
    {
        var id = await fixture.CreateProjectAsync("check-huge", "octo/check-huge");
        var head = GitHubFixture.Sha("check-huge");
        var rows = Enumerable.Range(0, 10_000).Select(i => Reports.Row($"Huge.Benchmark{i}(Size: {i})", i % 2 == 0 ? Outcome.Regression : Outcome.NoChange)).ToArray();
        fixture.Reports.Set(id, Reports.For("check-huge", 2, head, rows) with { PendingProfiles = ["m1-pro"] });
        await fixture.PublishAsync(id, 2);
        var run = Assert.Single(fixture.GitHub.CheckRunsOf("octo/check-huge", head));
        Assert.InRange(run.Summary!.Length, 1, CheckRuns.MaxSummaryLength);
    }
}

/// <summary>A token install cannot write checks on GitHub: it publishes the commit status and comment only.</summary>
public class TokenInstallCheckTests(GitHubFixture fixture) : IClassFixture<GitHubFixture>
{
    [Fact]
    public async Task A_token_install_publishes_no_check_run()
    {
        var id = await fixture.CreateProjectAsync("token-check", "octo/token-check");
        var head = GitHubFixture.Sha("token-check");
        fixture.Reports.Set(id, Reports.Regressed("token-check", 3, head));
        await fixture.PublishAsync(id, 3);
        Assert.Equal("failure", Assert.Single(fixture.GitHub.StatusesOf("octo/token-check", head)).State);
        Assert.Empty(fixture.GitHub.CallsTo("POST", "/check-runs"));
    }
}
