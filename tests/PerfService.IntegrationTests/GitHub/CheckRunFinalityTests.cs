using PerfService.Core.Comparison;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>
/// GitHub keeps a completed check run as it was (the fake refuses any change to one with a 422, as GitHub does):
/// every new conclusion is a new check run, and a refused change never keeps the comment from following the report.
/// Publishing only what changed: before any comment exists, an unchanged report calls GitHub for nothing.
/// </summary>
public class CheckRunFinalityTests(GitHubAppFixture fixture) : IClassFixture<GitHubAppFixture>
{
    private FakeGitHub GitHub => fixture.GitHub;

    [Fact]
    public async Task A_completion_whose_answer_was_lost_is_not_changed_again_and_the_comment_still_follows()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("final-lost");
        var head = GitHubFixture.Sha("final-lost");
        var regression = Reports.Regressed("final-lost", 1, head);
        fixture.Reports.Set(id, regression with { PendingProfiles = ["m1-pro"] });
        await fixture.PublishAsync(id, 1);
        var running = Assert.Single(GitHub.CheckRunsOf(repo, head));
        Assert.Equal("in_progress", running.Status);

        // GitHub completes the run but the answer is lost: the service cannot know the run is final now, and its retry
        // of the same change is refused.
        GitHub.Inject(new Fault("PATCH", $"/check-runs/{running.Id}", FaultKind.FailAfterProcessing));
        fixture.Reports.Set(id, regression);
        await fixture.PublishAsync(id, 1);

        Assert.Single(GitHub.RefusedCheckUpdates, r => r == running.Id);
        var runs = GitHub.CheckRunsOf(repo, head);
        Assert.All(runs, r => Assert.Equal(("completed", "failure"), (r.Status, r.Conclusion)));
        Assert.Equal(running.Id, runs[0].Id);
        var comment = Assert.Single(GitHub.CommentsOn(repo, 1));
        Assert.Contains("Demo.Parse", comment.Body, StringComparison.Ordinal);
        Assert.Equal(comment.Body, runs[^1].Summary);
        Assert.Equal("failure", GitHub.StatusesOf(repo, head).Last().State);

        // Settled: publishing the same report again changes nothing on GitHub.
        var calls = GitHub.Calls.Count;
        await fixture.PublishAsync(id, 1);
        Assert.Equal(calls, GitHub.Calls.Count);
    }

    [Fact]
    public async Task A_change_that_keeps_the_conclusion_leaves_the_completed_run_as_it_was()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("final-same");
        var head = GitHubFixture.Sha("final-same");
        fixture.Reports.Set(id, Reports.For("final-same", 2, head,
            Reports.Row("Demo.Parse(Size: 100)", Outcome.Regression), Reports.Row("Demo.Format", Outcome.Regression)));
        await fixture.PublishAsync(id, 2);

        // One of two regressions acknowledged: the comment says so, the check still fails.
        fixture.Reports.Set(id, Reports.For("final-same", 2, head,
            Reports.Row("Demo.Parse(Size: 100)", Outcome.Regression, acknowledged: true), Reports.Row("Demo.Format", Outcome.Regression)));
        await fixture.PublishAsync(id, 2);

        var run = Assert.Single(GitHub.CheckRunsOf(repo, head));
        Assert.Equal(("completed", "failure", 0), (run.Status, run.Conclusion, run.Updates));
        Assert.DoesNotContain(run.Id, GitHub.RefusedCheckUpdates);
        Assert.Contains("_(acknowledged)_", Assert.Single(GitHub.CommentsOn(repo, 2)).Body, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Before_any_comment_exists_an_unchanged_report_calls_github_for_nothing()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("final-quiet");
        var head = GitHubFixture.Sha("final-quiet");
        fixture.Reports.Set(id, Reports.For("final-quiet", 3, head) with { PendingProfiles = ["m1-pro", "ryzen-9950x"] });
        await fixture.PublishAsync(id, 3);
        Assert.Equal("pending", Assert.Single(GitHub.StatusesOf(repo, head)).State);
        Assert.Equal("in_progress", Assert.Single(GitHub.CheckRunsOf(repo, head)).Status);
        Assert.Empty(GitHub.CommentsOn(repo, 3));

        var calls = GitHub.Calls.Count;
        await fixture.PublishAsync(id, 3);
        await fixture.PublishAsync(id, 3);
        Assert.Equal(calls, GitHub.Calls.Count);
    }
}
