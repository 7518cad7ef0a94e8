using PerfService.AgentJobs;
using PerfService.Core.Reports;
using PerfService.GitHub;

namespace PerfService.IntegrationTests.GitHub;

public class WebhookTests(GitHubFixture fixture) : IClassFixture<GitHubFixture>
{
    // A same-repository branch by a member: trusted, so its jobs queue at once.
    private static object PullRequest(string action, int number, string repo, string head, string baseSha = PullRequestPayloads.BaseSha) =>
        PullRequestPayloads.PullRequest(action, number, repo, head, baseSha);

    private static object Push(string repo, string @ref, string after, bool deleted = false) => new
    {
        @ref, before = "0000000000000000000000000000000000000000", after, created = false, deleted, forced = false,
        repository = new { id = 1296269, full_name = repo, name = repo.Split('/')[1], default_branch = "main" },
        pusher = new { name = "octocat", email = "octocat@example.com" },
    };

    private async Task<List<JobDto>> JobsAsync(string project) =>
        (await fixture.App.CreateClient().GetFromJsonAsync<List<JobDto>>($"/api/v1/jobs?project={project}&limit=1000"))!;

    private static async Task AssertUnauthorizedAsync(HttpResponseMessage response)
    {
        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains("Invalid webhook signature", await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task Unsigned_wrongly_signed_and_tampered_deliveries_are_refused()
    {
        await fixture.CreateProjectAsync("hook-auth", "octo/hook-auth");
        var payload = PullRequest("opened", 1, "octo/hook-auth", GitHubFixture.Sha("auth"));

        await AssertUnauthorizedAsync(await fixture.DeliverAsync("pull_request", payload, secret: null));
        await AssertUnauthorizedAsync(await fixture.DeliverAsync("pull_request", payload, secret: "not the secret"));
        await AssertUnauthorizedAsync(await fixture.DeliverAsync("pull_request", payload, tamper: body => [.. body, (byte)' ']));
        await AssertUnauthorizedAsync(await fixture.DeliverAsync("ping", new { zen = "Keep it logically awesome." }, secret: ""));
        Assert.Empty(await JobsAsync("hook-auth"));
    }

    [Fact]
    public async Task Ping_answers_200() =>
        Assert.Equal(HttpStatusCode.OK, (await fixture.DeliverAsync("ping", new { zen = "Design for failure.", hook_id = 1 })).StatusCode);

    [Fact]
    public async Task Opening_a_pull_request_queues_a_job_per_profile_and_a_redelivery_is_ignored()
    {
        await fixture.CreateProjectAsync("hook-open", "Octo/Hook-Open");
        var head = GitHubFixture.Sha("open");
        var delivery = Guid.NewGuid().ToString();

        var first = await fixture.DeliverAsync("pull_request", PullRequest("opened", 5, "octo/hook-open", head), delivery: delivery);
        Assert.Equal(HttpStatusCode.Accepted, first.StatusCode);
        Assert.Equal(3, (await first.Content.ReadFromJsonAsync<WebhookReply>())!.Jobs);
        var again = await fixture.DeliverAsync("pull_request", PullRequest("opened", 5, "octo/hook-open", head), delivery: delivery);
        Assert.Equal(HttpStatusCode.OK, again.StatusCode);
        Assert.Equal("duplicate delivery ignored", (await again.Content.ReadFromJsonAsync<WebhookReply>())!.Message);

        var jobs = await JobsAsync("hook-open");
        Assert.Equal(["i7-4790k", "m1-pro", "ryzen-9950x"], jobs.Select(j => j.Profile).Order());
        Assert.All(jobs, j =>
        {
            Assert.Equal((head, "PullRequest", "Queued", 5, "feature/faster"), (j.Commit, j.Kind, j.State, j.PullRequest!.Value, j.Branch));
            Assert.Equal("1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d", j.BaseCommit);
        });
    }

    [Fact]
    public async Task A_new_push_to_the_pull_request_cancels_the_older_jobs_and_closing_cancels_the_rest()
    {
        await fixture.CreateProjectAsync("hook-sync", "octo/hook-sync");
        var (first, second) = (GitHubFixture.Sha("sync-1"), GitHubFixture.Sha("sync-2"));
        await fixture.DeliverAsync("pull_request", PullRequest("opened", 6, "octo/hook-sync", first));
        Assert.Equal(HttpStatusCode.Accepted, (await fixture.DeliverAsync("pull_request", PullRequest("synchronize", 6, "octo/hook-sync", second))).StatusCode);

        var jobs = await JobsAsync("hook-sync");
        Assert.All(jobs.Where(j => j.Commit == first), j => Assert.Equal("Cancelled", j.State));
        Assert.All(jobs.Where(j => j.Commit == second), j => Assert.Equal("Queued", j.State));
        Assert.Equal(3, jobs.Count(j => j.Commit == second));

        var closed = await fixture.DeliverAsync("pull_request", PullRequest("closed", 6, "octo/hook-sync", second));
        Assert.Equal(HttpStatusCode.Accepted, closed.StatusCode);
        jobs = await JobsAsync("hook-sync");
        Assert.All(jobs, j => Assert.Equal("Cancelled", j.State));
        Assert.Equal(3, jobs.Count(j => j.Reason == "pull request closed"));
    }

    [Fact]
    public async Task A_push_to_the_default_branch_queues_baselines_and_other_pushes_do_nothing()
    {
        await fixture.CreateProjectAsync("hook-push", "octo/hook-push", defaultBranch: "trunk");
        var after = GitHubFixture.Sha("push");

        Assert.Equal(HttpStatusCode.Accepted, (await fixture.DeliverAsync("push", Push("octo/hook-push", "refs/heads/feature", after))).StatusCode);
        Assert.Equal(HttpStatusCode.Accepted, (await fixture.DeliverAsync("push", Push("octo/hook-push", "refs/heads/trunk", "0000000000000000000000000000000000000000", deleted: true))).StatusCode);
        Assert.Empty(await JobsAsync("hook-push"));

        var response = await fixture.DeliverAsync("push", Push("octo/hook-push", "refs/heads/trunk", after));
        Assert.Equal(3, (await response.Content.ReadFromJsonAsync<WebhookReply>())!.Jobs);
        var jobs = await JobsAsync("hook-push");
        Assert.Equal(3, jobs.Count);
        Assert.All(jobs, j => Assert.Equal((after, "Baseline", "trunk", (int?)null, (string?)null), (j.Commit, j.Kind, j.Branch, j.PullRequest, j.BaseCommit)));
    }

    [Fact]
    public async Task Unknown_repositories_other_events_and_bad_payloads()
    {
        var unknown = await fixture.DeliverAsync("pull_request", PullRequest("opened", 1, "someone/else", GitHubFixture.Sha("x")));
        Assert.Equal(HttpStatusCode.Accepted, unknown.StatusCode);
        Assert.Contains("not connected", (await unknown.Content.ReadFromJsonAsync<WebhookReply>())!.Message);

        var issues = await fixture.DeliverAsync("issues", new { action = "opened" });
        Assert.Equal(HttpStatusCode.Accepted, issues.StatusCode);
        Assert.Contains("ignored", (await issues.Content.ReadFromJsonAsync<WebhookReply>())!.Message);

        // Half a payload is refused, and not remembered: a fixed redelivery of the same id is handled.
        var delivery = Guid.NewGuid().ToString();
        var broken = await fixture.DeliverAsync("pull_request", new { action = "opened", number = 3 }, delivery: delivery);
        Assert.Equal(HttpStatusCode.BadRequest, broken.StatusCode);
        await fixture.CreateProjectAsync("hook-bad", "octo/hook-bad");
        var fixedUp = await fixture.DeliverAsync("pull_request", PullRequest("opened", 3, "octo/hook-bad", GitHubFixture.Sha("bad")), delivery: delivery);
        Assert.Equal(HttpStatusCode.Accepted, fixedUp.StatusCode);
    }

    [Fact]
    public async Task Opening_a_pull_request_sets_a_pending_status_through_hangfire()
    {
        var projectId = await fixture.CreateProjectAsync("hook-status", "octo/hook-status");
        var head = GitHubFixture.Sha("status");
        fixture.Reports.Set(projectId, new PullRequestReport
        {
            Project = "hook-status", PullRequest = 9, HeadCommit = head, PendingProfiles = ["i7-4790k", "m1-pro", "ryzen-9950x"],
            DashboardUrl = "https://perf.example.com/projects/hook-status/pulls/9",
        });

        await fixture.DeliverAsync("pull_request", PullRequest("opened", 9, "octo/hook-status", head));

        await Eventually.TrueAsync(() => fixture.GitHub.StatusesOf("octo/hook-status", head).Count > 0, TimeSpan.FromSeconds(60));
        var status = Assert.Single(fixture.GitHub.StatusesOf("octo/hook-status", head));
        Assert.Equal(("pending", "perfservice/hook-status"), (status.State, status.Context));
        Assert.Equal("Benchmarking on i7-4790k, m1-pro, ryzen-9950x", status.Description);
        // Nothing measured yet: no comment to add.
        Assert.Empty(fixture.GitHub.CommentsOn("octo/hook-status", 9));
    }
}
