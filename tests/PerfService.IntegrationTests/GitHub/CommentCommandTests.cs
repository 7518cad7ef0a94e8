using PerfService.Data.Entities;
using static PerfService.IntegrationTests.GitHub.RealReportsGitHubAppFixture;
using PerfService.GitHub;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>
/// <c>/perf</c> commands in pull request comments (issue_comment webhooks): a writer's command acts and is answered
/// with a reaction and at most an update of the service's one comment; anyone else gets "confused" and nothing changes.
/// </summary>
public class CommentCommandTests(RealReportsGitHubAppFixture fixture) : IClassFixture<RealReportsGitHubAppFixture>
{
    /// <summary>Posts the command as the user on the fake GitHub, then delivers its issue_comment webhook.</summary>
    private async Task<(FakeComment Comment, WebhookReply Reply)> CommandAsync(string repo, int number, string body, string login)
    {
        var comment = fixture.GitHub.AddComment(repo, number, body, login);
        var response = await fixture.DeliverAsync("issue_comment", IssueComment(repo, number, comment.Id, body, login));
        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        return (comment, (await response.Content.ReadFromJsonAsync<WebhookReply>())!);
    }

    private List<FakeComment> BotComments(string repo, int number) =>
        fixture.GitHub.CommentsOn(repo, number).Where(c => c.Login == FakeGitHub.BotLogin).ToList();

    private Task<FakeComment?> BotCommentAsync(string repo, int number, Func<FakeComment, bool> wanted) =>
        Eventually.WaitAsync(() => Task.FromResult(BotComments(repo, number).SingleOrDefault()), c => c is not null && wanted(c));

    private static string Reactions(FakeGitHub github, FakeComment c) => string.Join(",", github.ReactionsOn(c.Id).Select(r => r.Content));

    [Fact]
    public async Task Help_shows_the_commands_in_the_one_comment_for_a_writer_and_nothing_for_others()
    {
        var head = await fixture.OpenJudgedAsync("cmd-help", 1, "Demo.Parse");
        var original = await BotCommentAsync("octo/cmd-help", 1, _ => true);

        var (refused, _) = await CommandAsync("octo/cmd-help", 1, "/perf help", Outsider);
        Assert.Equal("confused", Reactions(fixture.GitHub, refused));

        var (asked, _) = await CommandAsync("octo/cmd-help", 1, "/perf help", Maintainer);
        Assert.Equal("eyes", Reactions(fixture.GitHub, asked));
        var updated = await BotCommentAsync("octo/cmd-help", 1, c => c.Body.Contains("**PerfService commands**", StringComparison.Ordinal));
        Assert.Equal(original!.Id, updated!.Id);
        Assert.Contains("Demo.Parse", updated.Body, StringComparison.Ordinal);
        Assert.EndsWith("<!-- perfservice:project=cmd-help -->", updated.Body.TrimEnd(), StringComparison.Ordinal);
        Assert.Single(BotComments("octo/cmd-help", 1));
        Assert.NotNull(head);
    }

    [Fact]
    public async Task Ack_acknowledges_matching_regressions_with_the_reason_and_refuses_others()
    {
        var head = await fixture.OpenJudgedAsync("cmd-ack", 2, "Demo.Parse", "Other.Format");

        var (refused, _) = await CommandAsync("octo/cmd-ack", 2, "/perf ack Demo.* it is fine", Outsider);
        Assert.Equal("confused", Reactions(fixture.GitHub, refused));
        Assert.Equal([AlertState.Active, AlertState.Active], await fixture.AlertStatesAsync("cmd-ack"));

        var project = await fixture.ProjectIdAsync("cmd-ack");
        var published = await fixture.PublishJobsQueuedAsync(project, 2);
        var failing = Assert.Single(fixture.GitHub.CheckRunsOf("octo/cmd-ack", head));
        var (ack, reply) = await CommandAsync("octo/cmd-ack", 2, "/perf ack Demo.* expected: new validation", Maintainer);
        Assert.Contains("acknowledged 1", reply.Message, StringComparison.Ordinal);
        // One change (the acknowledgement and its note), one publish.
        Assert.Equal(published + 1, await fixture.PublishJobsQueuedAsync(project, 2));
        Assert.Equal("+1", Reactions(fixture.GitHub, ack));
        Assert.Equal([AlertState.Acknowledged, AlertState.Active], await fixture.AlertStatesAsync("cmd-ack"));
        var comment = await BotCommentAsync("octo/cmd-ack", 2, c => c.Body.Contains("acknowledged by @maint", StringComparison.Ordinal));
        Assert.Contains("expected: new validation", comment!.Body, StringComparison.Ordinal);
        Assert.Single(BotComments("octo/cmd-ack", 2));
        // One regression is left: the check still fails, and the completed run is left as it was (GitHub's rule).
        var check = Assert.Single(fixture.GitHub.CheckRunsOf("octo/cmd-ack", head));
        Assert.Equal((failing.Id, "failure", failing.Updates), (check.Id, check.Conclusion, check.Updates));
        Assert.DoesNotContain(check.Id, fixture.GitHub.RefusedCheckUpdates);

        var (none, _) = await CommandAsync("octo/cmd-ack", 2, "/perf ack Nothing.*", Maintainer);
        Assert.Equal("confused", Reactions(fixture.GitHub, none));
    }

    [Fact]
    public async Task Profile_queues_a_profiling_job_for_a_writer_that_the_report_does_not_count()
    {
        var head = await fixture.OpenJudgedAsync("cmd-profile", 6, "Demo.Parse");
        var report = await fixture.App.CreateClient().GetFromJsonAsync<Core.Reports.PullRequestReport>("/api/v1/projects/cmd-profile/pulls/6/report", Profiling.ReportJson.Options);

        var (refused, _) = await CommandAsync("octo/cmd-profile", 6, "/perf profile Demo.*", Outsider);
        Assert.Equal("confused", Reactions(fixture.GitHub, refused));
        Assert.DoesNotContain(await fixture.JobsAsync("cmd-profile"), j => j.Kind == JobKind.Profile);

        var (asked, reply) = await CommandAsync("octo/cmd-profile", 6, "/perf profile Demo.P*", Maintainer);
        Assert.Equal("rocket", Reactions(fixture.GitHub, asked));
        var profiling = (await fixture.JobsAsync("cmd-profile")).Where(j => j.Kind == JobKind.Profile).ToList();
        Assert.NotEmpty(profiling);
        Assert.All(profiling, j => Assert.Equal((head, JobState.Queued, 6), (j.Commit, j.State, j.PullRequest!.Value)));
        Assert.All(profiling, j => Assert.Equal([new ProfileTarget("Demo", "Demo.Parse")], j.Profiling!.Targets));
        Assert.Contains($"{profiling.Count} profiling jobs queued", reply.Message, StringComparison.Ordinal);

        // A queued profiling job measures nothing: the report's head, pending profiles and rows are as they were.
        var after = await fixture.App.CreateClient().GetFromJsonAsync<Core.Reports.PullRequestReport>("/api/v1/projects/cmd-profile/pulls/6/report", Profiling.ReportJson.Options);
        Assert.Equal((report!.HeadCommit, report.PendingProfiles.Count, report.Rows.Count), (after!.HeadCommit, after.PendingProfiles.Count, after.Rows.Count));
        Assert.Empty(after.PendingProfiles);

        var (none, _) = await CommandAsync("octo/cmd-profile", 6, "/perf profile Nothing.*", Maintainer);
        Assert.Equal("confused", Reactions(fixture.GitHub, none));
    }

    [Fact]
    public async Task Profiling_an_outsiders_head_waits_for_the_same_approval_as_its_suites()
    {
        await fixture.CreateProjectAsync("cmd-profile-fork", "octo/cmd-profile-fork");
        var head = GitHubFixture.Sha("cmd-profile-fork");
        await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("opened", 7, "octo/cmd-profile-fork", head, fork: "mallory/cmd-profile-fork",
            association: "CONTRIBUTOR", author: Outsider));
        await fixture.App.WithDbAsync(async db =>
        {
            var suite = new Suite { ProjectId = await fixture.ProjectIdAsync("cmd-profile-fork"), Name = "Demo" };
            db.Suites.Add(suite);
            await db.SaveChangesAsync();
            db.Benchmarks.Add(new Benchmark { SuiteId = suite.Id, Key = "Demo.Parse", Name = "Demo.Parse" });
            return await db.SaveChangesAsync();
        });

        var (asked, _) = await CommandAsync("octo/cmd-profile-fork", 7, "/perf profile Demo.Parse", Maintainer);
        Assert.Equal("rocket", Reactions(fixture.GitHub, asked));
        var profiling = (await fixture.JobsAsync("cmd-profile-fork")).Where(j => j.Kind == JobKind.Profile).ToList();
        Assert.NotEmpty(profiling);
        Assert.All(profiling, j => Assert.Equal((JobState.AwaitingApproval, true), (j.State, j.Untrusted)));

        await CommandAsync("octo/cmd-profile-fork", 7, "/perf run", Maintainer);
        Assert.All((await fixture.JobsAsync("cmd-profile-fork")).Where(j => j.Kind == JobKind.Profile), j => Assert.Equal(JobState.Queued, j.State));
    }

    [Fact]
    public async Task Rerun_queues_one_profile_for_a_writer_and_nothing_for_others()
    {
        var head = await fixture.OpenJudgedAsync("cmd-rerun", 3, "Demo.Parse");
        var before = (await fixture.JobsAsync("cmd-rerun")).Count;
        var finished = Assert.Single(fixture.GitHub.CheckRunsOf("octo/cmd-rerun", head));

        var (refused, _) = await CommandAsync("octo/cmd-rerun", 3, "/perf rerun m1-pro", Outsider);
        Assert.Equal("confused", Reactions(fixture.GitHub, refused));
        Assert.Equal(before, (await fixture.JobsAsync("cmd-rerun")).Count);

        var (rerun, _) = await CommandAsync("octo/cmd-rerun", 3, "/perf rerun m1-pro", Maintainer);
        Assert.Equal("rocket", Reactions(fixture.GitHub, rerun));
        var added = (await fixture.JobsAsync("cmd-rerun")).Skip(before).ToList();
        Assert.Equal(JobState.Queued, Assert.Single(added).State);
        // The head runs again: a new check run in progress; the completed one stays as it was.
        await Eventually.WaitAsync(() => Task.FromResult(fixture.GitHub.CheckRunsOf("octo/cmd-rerun", head)),
            runs => runs.Any(r => r.Id != finished.Id && r.Status == "in_progress"));
        var old = fixture.GitHub.CheckRunsOf("octo/cmd-rerun", head).Single(r => r.Id == finished.Id);
        Assert.Equal(("completed", "failure", finished.Updates), (old.Status, old.Conclusion, old.Updates));
        Assert.DoesNotContain(finished.Id, fixture.GitHub.RefusedCheckUpdates);

        var (unknown, _) = await CommandAsync("octo/cmd-rerun", 3, "/perf rerun no-such-profile", Maintainer);
        Assert.Equal("confused", Reactions(fixture.GitHub, unknown));
        Assert.Equal(before + 1, (await fixture.JobsAsync("cmd-rerun")).Count);
    }

    [Fact]
    public async Task Run_approves_an_outsiders_head_for_a_writer_only_and_no_comment_is_added()
    {
        await fixture.CreateProjectAsync("cmd-run", "octo/cmd-run");
        var head = GitHubFixture.Sha("cmd-run");
        await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("opened", 4, "octo/cmd-run", head, fork: "mallory/cmd-run",
            association: "CONTRIBUTOR", author: Outsider));

        // The author approving their own pull request is exactly what must not work.
        var (refused, _) = await CommandAsync("octo/cmd-run", 4, "/perf run", Outsider);
        Assert.Equal("confused", Reactions(fixture.GitHub, refused));
        Assert.All(await fixture.JobsAsync("cmd-run"), j => Assert.Equal(JobState.AwaitingApproval, j.State));

        var project = await fixture.ProjectIdAsync("cmd-run");
        var published = await fixture.PublishJobsQueuedAsync(project, 4);
        var (run, reply) = await CommandAsync("octo/cmd-run", 4, "/perf run", Maintainer);
        Assert.Equal(published + 1, await fixture.PublishJobsQueuedAsync(project, 4));
        Assert.Equal("rocket", Reactions(fixture.GitHub, run));
        Assert.Contains("queued 3 jobs", reply.Message, StringComparison.Ordinal);
        Assert.All(await fixture.JobsAsync("cmd-run"), j => Assert.Equal((JobState.Queued, true), (j.State, j.Untrusted)));
        var approval = await fixture.App.WithDbAsync(db => Task.FromResult(db.PullRequestApprovals.Single(a => a.HeadCommit == head)));
        Assert.Equal(("github:maint", "comment"), (approval.ApprovedBy, approval.Source));
        Assert.Empty(BotComments("octo/cmd-run", 4));
    }

    [Fact]
    public async Task Comments_that_are_not_commands_or_not_on_pull_requests_are_ignored()
    {
        await fixture.CreateProjectAsync("cmd-none", "octo/cmd-none");
        var (plain, reply) = await CommandAsync("octo/cmd-none", 5, "Looks good, /perf later", Maintainer);
        Assert.Contains("not a /perf command", reply.Message, StringComparison.Ordinal);
        Assert.Empty(fixture.GitHub.ReactionsOn(plain.Id));
    }
}
