using PerfService.Core.Reports;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>
/// The hidden marker finds the service's own comment after a crash; a comment by anyone else that carries the marker
/// is never adopted (it would put the report under their name, or let them steer what the service edits).
/// </summary>
public class CommentOwnershipTests(GitHubFixture fixture) : IClassFixture<GitHubFixture>
{
    [Fact]
    public async Task A_marker_comment_planted_by_another_user_is_not_edited()
    {
        var id = await fixture.CreateProjectAsync("own-planted", "octo/own-planted");
        var head = GitHubFixture.Sha("own-planted");
        var planted = fixture.GitHub.AddComment("octo/own-planted", 1, "Totally legit results\n\n" + CommentRenderer.Render(Reports.For("own-planted", 1, head)),
            login: "mallory");
        var report = Reports.Regressed("own-planted", 1, head);
        fixture.Reports.Set(id, report);

        await fixture.PublishAsync(id, 1);

        var comments = fixture.GitHub.CommentsOn("octo/own-planted", 1);
        Assert.Equal(2, comments.Count);
        Assert.Equal(planted, comments.Single(c => c.Id == planted.Id));
        Assert.Empty(fixture.GitHub.CallsTo("PATCH", $"/issues/comments/{planted.Id}"));
        var mine = comments.Single(c => c.Id != planted.Id);
        Assert.Equal(("perf-bot", CommentRenderer.Render(report)), (mine.Login, mine.Body));
        // Who the service is came from GET /user, asked once.
        Assert.Single(fixture.GitHub.CallsTo("GET", "/user"));
        var row = await fixture.App.WithDbAsync(db => db.PullRequestComments.AsNoTracking().SingleAsync(c => c.ProjectId == id));
        Assert.Equal(mine.Id, row.GitHubCommentId);
    }

    [Fact]
    public async Task The_services_own_orphaned_comment_is_still_adopted()
    {
        var id = await fixture.CreateProjectAsync("own-orphan", "octo/own-orphan");
        var head = GitHubFixture.Sha("own-orphan");
        fixture.GitHub.AddComment("octo/own-orphan", 2, "me too\n" + CommentRenderer.Render(Reports.For("own-orphan", 2, head)), login: "mallory");
        var orphan = fixture.GitHub.AddComment("octo/own-orphan", 2, CommentRenderer.Render(Reports.For("own-orphan", 2, head)), login: "perf-bot");
        fixture.Reports.Set(id, Reports.Regressed("own-orphan", 2, head));

        await fixture.PublishAsync(id, 2);

        Assert.Equal(2, fixture.GitHub.CommentsOn("octo/own-orphan", 2).Count);
        Assert.Single(fixture.GitHub.CallsTo("PATCH", $"/issues/comments/{orphan.Id}"));
    }
}

/// <summary>With a GitHub App the service's identity is its bot user, found with GET /app.</summary>
public class AppCommentOwnershipTests(GitHubAppFixture fixture) : IClassFixture<GitHubAppFixture>
{
    [Fact]
    public async Task Only_the_apps_bot_comment_is_adopted()
    {
        var id = await fixture.CreateProjectAsync("own-app", "octo/own-app");
        var head = GitHubFixture.Sha("own-app");
        var marker = CommentRenderer.Render(Reports.For("own-app", 3, head));
        var byUser = fixture.GitHub.AddComment("octo/own-app", 3, marker, login: "perf-bot");
        var byBot = fixture.GitHub.AddComment("octo/own-app", 3, marker, login: FakeGitHub.BotLogin);
        fixture.Reports.Set(id, Reports.Regressed("own-app", 3, head));

        await fixture.PublishAsync(id, 3);

        Assert.Empty(fixture.GitHub.CallsTo("PATCH", $"/issues/comments/{byUser.Id}"));
        Assert.Single(fixture.GitHub.CallsTo("PATCH", $"/issues/comments/{byBot.Id}"));
        Assert.Equal(2, fixture.GitHub.CommentsOn("octo/own-app", 3).Count);
        Assert.Single(fixture.GitHub.CallsTo("GET", "/app"));
    }

    [Fact]
    public async Task A_new_comment_is_written_by_the_apps_bot()
    {
        var id = await fixture.CreateProjectAsync("own-app-new", "octo/own-app-new");
        fixture.Reports.Set(id, Reports.Regressed("own-app-new", 4, GitHubFixture.Sha("own-app-new")));
        await fixture.PublishAsync(id, 4);
        Assert.Equal(FakeGitHub.BotLogin, Assert.Single(fixture.GitHub.CommentsOn("octo/own-app-new", 4)).Login);
    }
}
