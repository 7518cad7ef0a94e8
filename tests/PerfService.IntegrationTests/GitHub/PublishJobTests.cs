using PerfService.Core.Reports;
using PerfService.Core.Comparison;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>The publish job against the fake GitHub with token authentication, called directly as Hangfire would.</summary>
public class PublishJobTests(GitHubFixture fixture) : IClassFixture<GitHubFixture>
{
    private FakeGitHub GitHub => fixture.GitHub;

    [Fact]
    public async Task Posts_one_comment_with_the_marker_and_a_failure_status()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-first");
        var head = GitHubFixture.Sha("pub-first");
        var report = Reports.Regressed("pub-first", 1, head);
        fixture.Reports.Set(id, report);

        await fixture.PublishAsync(id, 1);

        var comment = Assert.Single(GitHub.CommentsOn(repo, 1));
        Assert.Equal(CommentRenderer.Render(report), comment.Body);
        Assert.EndsWith("<!-- perfservice:project=pub-first -->", comment.Body);
        var status = Assert.Single(GitHub.StatusesOf(repo, head));
        Assert.Equal(("failure", "perfservice/pub-first", "https://perf.example.com/projects/pub-first/pulls/1"), (status.State, status.Context, status.TargetUrl));
        Assert.StartsWith("1 regression, 0 improvements, 1 unchanged", status.Description);
        Assert.All(GitHub.CallsTo("POST", "/repos/octo/pub-first/"), c => Assert.StartsWith("token " + FakeGitHub.PersonalToken, c.Authorization, StringComparison.OrdinalIgnoreCase));

        var row = await fixture.CommentRowAsync(id, 1);
        Assert.Equal((comment.Id, head, "failure"), (row!.GitHubCommentId!.Value, row.HeadCommit, row.LastState));
        Assert.Equal(64, row.BodyHash!.Length);
    }

    [Fact]
    public async Task A_changed_report_updates_the_same_comment_and_an_unchanged_one_posts_nothing()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-update");
        var head = GitHubFixture.Sha("pub-update");
        fixture.Reports.Set(id, Reports.Regressed("pub-update", 2, head));
        await fixture.PublishAsync(id, 2);

        // Acknowledging the regression re-runs the publish: same comment, green status.
        var acknowledged = Reports.For("pub-update", 2, head, Reports.Row("Demo.Parse(Size: 100)", Outcome.Regression, acknowledged: true));
        fixture.Reports.Set(id, acknowledged);
        await fixture.PublishAsync(id, 2);

        var comment = Assert.Single(GitHub.CommentsOn(repo, 2));
        Assert.Equal(CommentRenderer.Render(acknowledged), comment.Body);
        Assert.Single(GitHub.CallsTo("POST", "/repos/octo/pub-update/issues/2/comments"));
        Assert.Single(GitHub.CallsTo("PATCH", $"/repos/octo/pub-update/issues/comments/{comment.Id}"));
        Assert.Equal(["failure", "success"], GitHub.StatusesOf(repo, head).Select(s => s.State));

        var calls = GitHub.Calls.Count;
        await fixture.PublishAsync(id, 2);
        Assert.Equal(calls, GitHub.Calls.Count);
    }

    [Fact]
    public async Task A_comment_posted_before_a_crash_is_found_by_its_marker_and_updated()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-crash");
        var head = GitHubFixture.Sha("pub-crash");
        // More than a page of discussion (GitHub pages by 30) before it, so the search has to follow the Link header.
        for (var i = 0; i < 40; i++) GitHub.AddComment(repo, 3, $"Looks slow to me ({i})", login: "octocat");
        // Posted by an earlier try that died before saving the comment id: there is no row for it.
        var orphan = GitHub.AddComment(repo, 3, CommentRenderer.Render(Reports.For("pub-crash", 3, head)));
        var report = Reports.Regressed("pub-crash", 3, head);
        fixture.Reports.Set(id, report);

        await fixture.PublishAsync(id, 3);

        Assert.Empty(GitHub.CallsTo("POST", "/repos/octo/pub-crash/issues/3/comments"));
        Assert.Single(GitHub.CallsTo("PATCH", $"/issues/comments/{orphan.Id}"));
        Assert.Equal(41, GitHub.CommentsOn(repo, 3).Count);
        Assert.Equal(CommentRenderer.Render(report), GitHub.CommentsOn(repo, 3)[^1].Body);
        Assert.Equal(2, GitHub.CallsTo("GET", "/repos/octo/pub-crash/issues/3/comments").Count);
        Assert.Equal(orphan.Id, (await fixture.CommentRowAsync(id, 3))!.GitHubCommentId);
    }

    [Fact]
    public async Task A_deleted_comment_is_posted_again()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-deleted");
        var head = GitHubFixture.Sha("pub-deleted");
        fixture.Reports.Set(id, Reports.Regressed("pub-deleted", 10, head));
        await fixture.PublishAsync(id, 10);
        GitHub.DeleteComment(GitHub.CommentsOn(repo, 10).Single().Id);

        fixture.Reports.Set(id, Reports.For("pub-deleted", 10, head, Reports.Row("Demo.Parse(Size: 100)", Outcome.Improvement, 100, 80)));
        await fixture.PublishAsync(id, 10);

        var comment = Assert.Single(GitHub.CommentsOn(repo, 10));
        Assert.Equal(comment.Id, (await fixture.CommentRowAsync(id, 10))!.GitHubCommentId);
        Assert.Equal("success", GitHub.StatusesOf(repo, head).Last().State);
    }

    [Fact]
    public async Task Until_there_are_results_only_the_pending_status_is_set()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-pending");
        var head = GitHubFixture.Sha("pub-pending");
        fixture.Reports.Set(id, Reports.For("pub-pending", 11, head) with { PendingProfiles = ["m1-pro"] });

        await fixture.PublishAsync(id, 11);

        Assert.Equal("pending", Assert.Single(GitHub.StatusesOf(repo, head)).State);
        Assert.Empty(GitHub.CommentsOn(repo, 11));
        Assert.Empty(GitHub.CallsTo("POST", "/repos/octo/pub-pending/issues/11/comments"));
    }

    [Fact]
    public async Task A_huge_report_fits_in_one_comment()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-huge");
        var rows = Enumerable.Range(0, 5_000).Select(i => Reports.Row($"Demo.Generated.Case{i:0000}(Size: {i})", i < 40 ? Outcome.Regression : Outcome.NoChange));
        fixture.Reports.Set(id, Reports.For("pub-huge", 12, GitHubFixture.Sha("pub-huge"), [.. rows]));

        await fixture.PublishAsync(id, 12);

        var comment = Assert.Single(GitHub.CommentsOn(repo, 12));
        Assert.InRange(comment.Body.Length, 10_000, 65_536);
        Assert.Contains("Demo.Generated.Case0039", comment.Body);
    }

    [Fact]
    public async Task Concurrent_publishes_of_one_pull_request_post_one_comment()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-race");
        fixture.Reports.Set(id, Reports.Regressed("pub-race", 13, GitHubFixture.Sha("pub-race")));

        await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => fixture.PublishAsync(id, 13)));

        Assert.Single(GitHub.CommentsOn(repo, 13));
        Assert.Single(GitHub.CallsTo("POST", "/repos/octo/pub-race/issues/13/comments"));
    }
}
