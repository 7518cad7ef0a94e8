using System.Diagnostics;
using Hangfire;
using Microsoft.Extensions.DependencyInjection;
using Octokit;
using PerfService.PullRequests;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>GitHub failing or pushing back: lost responses, 5xx, rate limits. The job retries without posting twice.</summary>
public class PublishRetryTests(GitHubFixture fixture) : IClassFixture<GitHubFixture>
{
    private FakeGitHub GitHub => fixture.GitHub;

    [Fact]
    public async Task A_created_comment_whose_response_was_lost_is_not_posted_twice()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-lost");
        fixture.Reports.Set(id, Reports.Regressed("pub-lost", 4, GitHubFixture.Sha("pub-lost")));
        GitHub.Inject(new Fault("POST", "/repos/octo/pub-lost/issues/4/comments", FaultKind.FailAfterProcessing));

        await fixture.PublishAsync(id, 4);

        var comment = Assert.Single(GitHub.CommentsOn(repo, 4));
        Assert.Single(GitHub.CallsTo("POST", "/repos/octo/pub-lost/issues/4/comments"));
        Assert.Equal(comment.Id, (await fixture.CommentRowAsync(id, 4))!.GitHubCommentId);
    }

    [Fact]
    public async Task A_server_error_is_retried_and_the_comment_posted_once()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-500");
        fixture.Reports.Set(id, Reports.Regressed("pub-500", 5, GitHubFixture.Sha("pub-500")));
        GitHub.Inject(new Fault("POST", "/repos/octo/pub-500/issues/5/comments", FaultKind.ServerError),
            new Fault("POST", "/repos/octo/pub-500/statuses/", FaultKind.ServerError));

        await fixture.PublishAsync(id, 5);

        Assert.Single(GitHub.CommentsOn(repo, 5));
        Assert.Equal(2, GitHub.CallsTo("POST", "/repos/octo/pub-500/issues/5/comments").Count);
        Assert.Equal(2, GitHub.CallsTo("POST", "/repos/octo/pub-500/statuses/").Count);
    }

    [Fact]
    public async Task Persistent_server_errors_fail_the_job_so_that_hangfire_retries_it()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-down");
        fixture.Reports.Set(id, Reports.Regressed("pub-down", 6, GitHubFixture.Sha("pub-down")));
        GitHub.Inject([.. Enumerable.Repeat(new Fault("GET", "/repos/octo/pub-down/issues/6/comments", FaultKind.ServerError), 3)]);

        var error = await Assert.ThrowsAsync<ApiException>(() => fixture.PublishAsync(id, 6));
        Assert.Equal(System.Net.HttpStatusCode.InternalServerError, error.StatusCode);
        Assert.Empty(GitHub.CommentsOn(repo, 6));

        await fixture.PublishAsync(id, 6); // Hangfire's retry
        Assert.Single(GitHub.CommentsOn(repo, 6));
        // The status went out before the comment failed; posting the same status again is harmless.
        Assert.All(GitHub.StatusesOf(repo, GitHubFixture.Sha("pub-down")), s => Assert.Equal("failure", s.State));
    }

    [Fact]
    public async Task A_short_rate_limit_is_waited_out_not_hammered()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-403");
        fixture.Reports.Set(id, Reports.Regressed("pub-403", 7, GitHubFixture.Sha("pub-403")));
        GitHub.Inject(new Fault("POST", "/repos/octo/pub-403/issues/7/comments", FaultKind.RateLimited, Seconds: 2));

        var clock = Stopwatch.StartNew();
        await fixture.PublishAsync(id, 7);

        Assert.True(clock.Elapsed >= TimeSpan.FromSeconds(1.5), $"waited only {clock.Elapsed}");
        Assert.Single(GitHub.CommentsOn(repo, 7));
        Assert.Equal(2, GitHub.CallsTo("POST", "/repos/octo/pub-403/issues/7/comments").Count);
    }

    [Fact]
    public async Task Retry_after_is_honoured()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-429");
        var head = GitHubFixture.Sha("pub-429");
        fixture.Reports.Set(id, Reports.Regressed("pub-429", 8, head));
        GitHub.Inject(new Fault("POST", "/repos/octo/pub-429/statuses/", FaultKind.TooManyRequests, Seconds: 1));

        var clock = Stopwatch.StartNew();
        await fixture.PublishAsync(id, 8);

        Assert.True(clock.Elapsed >= TimeSpan.FromSeconds(1), $"waited only {clock.Elapsed}");
        Assert.Single(GitHub.StatusesOf(repo, head));
        Assert.Single(GitHub.CommentsOn(repo, 8));
    }

    [Fact]
    public async Task A_long_rate_limit_reschedules_the_job_at_the_reset()
    {
        var (id, repo) = await fixture.CreateOctoProjectAsync("pub-later");
        var head = GitHubFixture.Sha("pub-later");
        fixture.Reports.Set(id, Reports.Regressed("pub-later", 9, head));
        GitHub.Inject(new Fault("POST", "/repos/octo/pub-later/statuses/", FaultKind.RateLimited, Seconds: 3600));

        var clock = Stopwatch.StartNew();
        await fixture.PublishAsync(id, 9);

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30));
        Assert.Empty(GitHub.StatusesOf(repo, head));
        var scheduled = fixture.App.Services.GetRequiredService<JobStorage>().GetMonitoringApi().ScheduledJobs(0, 100)
            .Select(j => j.Value).Where(j => j.Job.Type == typeof(PullRequestPublishJob) && (long)j.Job.Args[0] == id).ToList();
        var job = Assert.Single(scheduled);
        Assert.Equal(9, (int)job.Job.Args[1]);
        Assert.InRange(job.EnqueueAt, DateTime.UtcNow.AddMinutes(59), DateTime.UtcNow.AddMinutes(61));
    }
}
