using PerfService.Data.Entities;
using static PerfService.IntegrationTests.GitHub.RealReportsGitHubAppFixture;
using PerfService.GitHub;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>
/// The check run's "Re-run" (check_run / check_suite <c>rerequested</c>) and "Acknowledge" (<c>requested_action</c>)
/// buttons, delivered as signed webhooks to the real service: people with write access (asked of the fake GitHub)
/// re-queue and acknowledge; anyone else changes nothing.
/// </summary>
public class CheckButtonTests(RealReportsGitHubAppFixture fixture) : IClassFixture<RealReportsGitHubAppFixture>
{
    private async Task<FakeCheckRun> CheckAsync(string repo, string head, Func<FakeCheckRun, bool> wanted) =>
        (await Eventually.WaitAsync(() => Task.FromResult(fixture.GitHub.CheckRunsOf(repo, head).LastOrDefault()), c => c is not null && wanted(c)))!;

    private async Task<WebhookReply> DeliverAsync(string eventName, object payload)
    {
        var response = await fixture.DeliverAsync(eventName, payload);
        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        return (await response.Content.ReadFromJsonAsync<WebhookReply>())!;
    }

    [Fact]
    public async Task Acknowledge_from_the_failing_check_by_a_writer_turns_it_green_and_a_reader_is_refused()
    {
        var head = await fixture.OpenJudgedAsync("btn-ack", 1, "Demo.Parse");
        var check = await CheckAsync("octo/btn-ack", head, c => c.Conclusion == "failure");
        Assert.Equal("acknowledge", Assert.Single(check.Actions).Identifier);

        // The attack: someone with read access presses the button (GitHub sends the event for anyone who sees it).
        var refused = await DeliverAsync("check_run", CheckRun("requested_action", "octo/btn-ack", check.Id, head, Outsider, "acknowledge"));
        Assert.Contains("lacks write access", refused.Message, StringComparison.Ordinal);
        Assert.Equal([AlertState.Active], await fixture.AlertStatesAsync("btn-ack"));
        Assert.Single(fixture.GitHub.CallsTo("GET", $"/collaborators/{Outsider}/permission"));

        await DeliverAsync("check_run", CheckRun("requested_action", "octo/btn-ack", check.Id, head, Maintainer, "acknowledge"));
        Assert.Equal([AlertState.Acknowledged], await fixture.AlertStatesAsync("btn-ack"));
        var green = await CheckAsync("octo/btn-ack", head, c => c.Conclusion == "success");
        // GitHub keeps a completed run as it was: the new conclusion is a new run, the failed one is left alone.
        Assert.NotEqual(check.Id, green.Id);
        Assert.Empty(green.Actions);
        var failed = fixture.GitHub.CheckRunsOf("octo/btn-ack", head).Single(c => c.Id == check.Id);
        Assert.Equal(("completed", "failure", check.Updates), (failed.Status, failed.Conclusion, failed.Updates));
        Assert.DoesNotContain(check.Id, fixture.GitHub.RefusedCheckUpdates);
        var events = await fixture.App.WithDbAsync(db => Task.FromResult(db.AlertEvents.Where(e => e.Actor == "github:" + Maintainer).ToList()));
        Assert.Single(events);

        // A second refusal is answered from the cache, not by asking GitHub again.
        await DeliverAsync("check_run", CheckRun("requested_action", "octo/btn-ack", green.Id, head, Outsider, "acknowledge", conclusion: "success"));
        Assert.Single(fixture.GitHub.CallsTo("GET", $"/collaborators/{Outsider}/permission"));
    }

    [Fact]
    public async Task Rerun_from_the_check_and_the_suite_queues_the_head_again_for_writers_only()
    {
        var head = await fixture.OpenJudgedAsync("btn-rerun", 2, "Demo.Parse");
        var check = await CheckAsync("octo/btn-rerun", head, c => c.Status == "completed");
        var before = (await fixture.JobsAsync("btn-rerun")).Count;

        await DeliverAsync("check_run", CheckRun("rerequested", "octo/btn-rerun", check.Id, head, Outsider));
        Assert.Equal(before, (await fixture.JobsAsync("btn-rerun")).Count);

        var reply = await DeliverAsync("check_run", CheckRun("rerequested", "octo/btn-rerun", check.Id, head, Maintainer));
        Assert.True(reply.Jobs == 3, reply.Message);
        var jobs = await fixture.JobsAsync("btn-rerun");
        Assert.Equal(3, jobs.Skip(before).Count(j => j.State == JobState.Queued && j.Commit == head && j.PullRequest == 2 && j.BaseCommit == PullRequestPayloads.BaseSha));
        // A new check run in progress answers the re-run; the finished one stays as it was.
        var fresh = await CheckAsync("octo/btn-rerun", head, c => c.Id != check.Id && c.Status == "in_progress");
        Assert.Equal("completed", fixture.GitHub.CheckRunsOf("octo/btn-rerun", head).Single(c => c.Id == check.Id).Status);
        Assert.Equal(2, fixture.GitHub.CheckRunsOf("octo/btn-rerun", head).Count);

        var suite = await DeliverAsync("check_suite", CheckSuite("octo/btn-rerun", head, Maintainer));
        Assert.Equal(3, suite.Jobs);
        // A check run of an older head re-runs nothing.
        var stale = await DeliverAsync("check_run", CheckRun("rerequested", "octo/btn-rerun", fresh!.Id, GitHubFixture.Sha("old"), Maintainer));
        Assert.Equal(0, stale.Jobs);
    }

    [Fact]
    public async Task Rerun_of_an_outsiders_unapproved_head_keeps_it_waiting()
    {
        var project = await fixture.CreateProjectAsync("btn-fork", "octo/btn-fork");
        var head = GitHubFixture.Sha("btn-fork");
        await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("opened", 3, "octo/btn-fork", head, fork: "mallory/btn-fork",
            association: "CONTRIBUTOR", author: Outsider));
        var check = await CheckAsync("octo/btn-fork", head, c => c.Status == "queued");

        var reply = await DeliverAsync("check_suite", CheckSuite("octo/btn-fork", head, Maintainer));
        Assert.Equal(0, reply.Jobs);
        Assert.All(await fixture.JobsAsync("btn-fork"), j => Assert.Equal(JobState.AwaitingApproval, j.State));
        // The publish job the re-run queued, run now rather than raced: it keeps the one queued check run.
        await fixture.PublishAsync(project, 3);
        Assert.Equal(check.Id, Assert.Single(fixture.GitHub.CheckRunsOf("octo/btn-fork", head)).Id);
    }
}
