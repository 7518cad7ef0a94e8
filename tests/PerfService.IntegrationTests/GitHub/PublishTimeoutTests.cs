namespace PerfService.IntegrationTests.GitHub;

/// <summary>A service whose GitHub calls time out after 5 s, so that a test can wait one out.</summary>
public sealed class ShortTimeoutGitHubFixture : GitHubFixture
{
    protected override IReadOnlyDictionary<string, string?> ServiceSettings => new Dictionary<string, string?>(base.ServiceSettings)
    {
        ["GitHub:RequestTimeoutSeconds"] = "5",
    };
}

/// <summary>GitHub storing a comment but answering too late: the retry finds the comment instead of posting again.</summary>
public class PublishTimeoutTests(ShortTimeoutGitHubFixture fixture) : IClassFixture<ShortTimeoutGitHubFixture>
{
    [Fact]
    public async Task A_comment_whose_answer_times_out_is_not_posted_twice()
    {
        const string repo = "octo/pub-slow";
        var id = await fixture.CreateProjectAsync("pub-slow", repo);
        fixture.Reports.Set(id, Reports.Regressed("pub-slow", 14, GitHubFixture.Sha("pub-slow")));
        fixture.GitHub.Inject(new Fault("POST", "/repos/octo/pub-slow/issues/14/comments", FaultKind.SlowAfterProcessing, Seconds: 15));

        await fixture.PublishAsync(id, 14);

        // The call timed out after GitHub had stored the comment; the retry found it by its marker instead of posting again.
        var comment = Assert.Single(fixture.GitHub.CommentsOn(repo, 14));
        Assert.Single(fixture.GitHub.CallsTo("POST", "/repos/octo/pub-slow/issues/14/comments"));
        var row = await fixture.App.WithDbAsync(db => db.PullRequestComments.AsNoTracking().SingleOrDefaultAsync(c => c.ProjectId == id && c.PullRequest == 14));
        Assert.Equal(comment.Id, row!.GitHubCommentId);
    }
}
