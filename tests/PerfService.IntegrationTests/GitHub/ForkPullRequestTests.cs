using PerfService.AgentJobs;
using PerfService.Core.Reports;
using PerfService.PullRequests;
using PerfService.GitHub;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>The service with the real, job-backed report source: commit statuses say what the jobs are doing.</summary>
public sealed class RealReportsGitHubFixture : GitHubFixture
{
    protected override bool FakeReports => false;
}

/// <summary>
/// Pull requests from forks and outside authors, against the real service, PostgreSQL and the fake GitHub: their jobs
/// wait where no agent can claim them until a maintainer approves the head (label or admin API), and run flagged
/// untrusted; members' and same-repository pull requests run at once.
/// </summary>
public class ForkPullRequestTests(RealReportsGitHubFixture fixture) : IClassFixture<RealReportsGitHubFixture>
{
    private const string Profile = "m1-pro";

    private async Task<List<JobDto>> JobsAsync(string project) =>
        (await fixture.App.CreateClient().GetFromJsonAsync<List<JobDto>>($"/api/v1/jobs?project={project}&limit=1000"))!;

    private async Task<string> ProjectAsync(string slug)
    {
        await fixture.CreateProjectAsync(slug, $"octo/{slug}");
        return $"octo/{slug}";
    }

    /// <summary>Claims until the queue of the profile is empty: whatever any agent could get now.</summary>
    private async Task<List<JobAssignment>> DrainAsync(string agentName)
    {
        var agent = await AgentClient.RegisterAsync(fixture.App, agentName, Profile);
        var claimed = new List<JobAssignment>();
        while (await agent.ClaimAsync() is { } job) claimed.Add(job);
        return claimed;
    }

    private async Task<FakeStatus> WaitForStatusAsync(string repo, string sha, Func<FakeStatus, bool> wanted)
    {
        var latest = await Eventually.WaitAsync(() => Task.FromResult(fixture.GitHub.StatusesOf(repo, sha).LastOrDefault()),
            s => s is not null && wanted(s), TimeSpan.FromSeconds(60), 100);
        if (latest is null || !wanted(latest)) Assert.Fail($"no such status on {sha}; last: {latest?.State} {latest?.Description}");
        return latest!;
    }

    private async Task<HttpResponseMessage> DeliverAsync(object payload) => await fixture.DeliverAsync("pull_request", payload);

    [Theory]
    [InlineData("CONTRIBUTOR")]
    [InlineData("NONE")]
    [InlineData("FIRST_TIME_CONTRIBUTOR")]
    public async Task A_fork_pull_request_of_an_outsider_waits_for_approval_and_no_agent_can_claim_it(string association)
    {
        var slug = $"fork-wait-{association.ToLowerInvariant().Replace('_', '-')}";
        var repo = await ProjectAsync(slug);
        var head = GitHubFixture.Sha(slug);

        var response = await DeliverAsync(PullRequestPayloads.PullRequest("opened", 1, repo, head, fork: $"mallory/{slug}", association: association, author: "mallory"));
        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        Assert.Equal(0, (await response.Content.ReadFromJsonAsync<WebhookReply>())!.Jobs);

        var jobs = await JobsAsync(slug);
        Assert.Equal(3, jobs.Count);
        Assert.All(jobs, j => Assert.Equal(("AwaitingApproval", true), (j.State, j.Untrusted)));
        // The attack: an agent asks for work. Nothing of this pull request is handed out.
        Assert.DoesNotContain(await DrainAsync($"claimer-{slug}"), j => j.Project == slug);
        Assert.All(await JobsAsync(slug), j => Assert.Equal("AwaitingApproval", j.State));

        var status = await WaitForStatusAsync(repo, head, s => s.State == "pending");
        Assert.Equal(CommitStatusSummary.AwaitingApproval("perf:run"), status.Description);
        Assert.Equal($"perfservice/{slug}", status.Context);
    }

    [Fact]
    public async Task The_approval_label_queues_the_head_and_an_agent_claims_it_flagged_untrusted()
    {
        var repo = await ProjectAsync("fork-label");
        var head = GitHubFixture.Sha("fork-label");
        await DeliverAsync(PullRequestPayloads.PullRequest("opened", 2, repo, head, fork: "mallory/fork-label", association: "CONTRIBUTOR", author: "mallory"));

        // Another label is no approval.
        await DeliverAsync(PullRequestPayloads.PullRequest("labeled", 2, repo, head, fork: "mallory/fork-label", association: "CONTRIBUTOR",
            author: "mallory", sender: "maintainer", label: "bug"));
        Assert.All(await JobsAsync("fork-label"), j => Assert.Equal("AwaitingApproval", j.State));

        var labeled = await DeliverAsync(PullRequestPayloads.PullRequest("labeled", 2, repo, head, fork: "mallory/fork-label", association: "CONTRIBUTOR",
            author: "mallory", sender: "maintainer", label: "perf:run"));
        Assert.Equal(3, (await labeled.Content.ReadFromJsonAsync<WebhookReply>())!.Jobs);
        Assert.All(await JobsAsync("fork-label"), j => Assert.Equal(("Queued", true), (j.State, j.Untrusted)));

        var mine = Assert.Single(await DrainAsync("claimer-fork-label"), j => j.Project == "fork-label");
        Assert.True(mine.Untrusted);
        Assert.Equal((head, PullRequestPayloads.BaseSha, 2), (mine.Commit, mine.BaseCommit, mine.PullRequest!.Value));

        var approval = await fixture.App.WithDbAsync(db => db.PullRequestApprovals.AsNoTracking().SingleAsync(a => a.PullRequest == 2 && a.HeadCommit == head));
        Assert.Equal(("github:maintainer", "label"), (approval.ApprovedBy, approval.Source));
        // The status moves on from "awaiting approval" to the profiles at work.
        await WaitForStatusAsync(repo, head, s => s.Description!.StartsWith("Benchmarking on", StringComparison.Ordinal));
    }

    [Fact]
    public async Task The_admin_approve_endpoint_releases_the_head_and_other_tokens_are_refused()
    {
        var repo = await ProjectAsync("fork-api");
        var head = GitHubFixture.Sha("fork-api");
        await DeliverAsync(PullRequestPayloads.PullRequest("opened", 3, repo, head, fork: "mallory/fork-api", association: "NONE", author: "mallory"));
        const string url = "/api/v1/projects/fork-api/pulls/3/approve";

        Assert.Equal(HttpStatusCode.Unauthorized, (await fixture.App.CreateClient().PostAsync(url, null)).StatusCode);
        foreach (var scope in new[] { Scopes.Read, Scopes.Ingest, Scopes.Agent })
            Assert.Equal(HttpStatusCode.Forbidden, (await (await fixture.App.ClientWithScopesAsync(scope)).PostAsync(url, null)).StatusCode);
        Assert.All(await JobsAsync("fork-api"), j => Assert.Equal("AwaitingApproval", j.State));

        var admin = await fixture.App.ClientWithScopesAsync(Scopes.Admin);
        var approved = await admin.PostAsJsonAsync(url, new { headCommit = head });
        Assert.Equal(HttpStatusCode.OK, approved.StatusCode);
        var dto = (await approved.Content.ReadFromJsonAsync<PullRequestApprovalDto>())!;
        Assert.Equal(("fork-api", 3, head, 3, "token:test-admin"), (dto.Project, dto.PullRequest, dto.HeadCommit, dto.Jobs, dto.ApprovedBy));
        Assert.All(await JobsAsync("fork-api"), j => Assert.Equal(("Queued", true), (j.State, j.Untrusted)));
        Assert.True(Assert.Single(await DrainAsync("claimer-fork-api"), j => j.Project == "fork-api").Untrusted);

        // Nothing waits any more, and an unknown pull request or project has nothing either: 404 with a problem.
        foreach (var nothing in new[] { url, "/api/v1/projects/fork-api/pulls/99/approve", "/api/v1/projects/no-such/pulls/3/approve" })
        {
            var response = await admin.PostAsJsonAsync(nothing, new { headCommit = head });
            Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        }
    }

    [Fact]
    public async Task A_new_push_by_the_outsider_needs_approval_again()
    {
        var repo = await ProjectAsync("fork-push");
        var (first, second) = (GitHubFixture.Sha("fork-push-1"), GitHubFixture.Sha("fork-push-2"));
        await DeliverAsync(PullRequestPayloads.PullRequest("opened", 4, repo, first, fork: "mallory/fork-push", association: "CONTRIBUTOR", author: "mallory"));
        await DeliverAsync(PullRequestPayloads.PullRequest("labeled", 4, repo, first, fork: "mallory/fork-push", association: "CONTRIBUTOR",
            author: "mallory", sender: "maintainer", label: "perf:run"));
        Assert.All(await JobsAsync("fork-push"), j => Assert.Equal("Queued", j.State));

        // The label stays on the pull request, but it approved the first head only.
        await DeliverAsync(PullRequestPayloads.PullRequest("synchronize", 4, repo, second, fork: "mallory/fork-push", association: "CONTRIBUTOR",
            author: "mallory", before: first));
        var jobs = await JobsAsync("fork-push");
        Assert.All(jobs.Where(j => j.Commit == first), j => Assert.Equal("Cancelled", j.State));
        Assert.All(jobs.Where(j => j.Commit == second), j => Assert.Equal(("AwaitingApproval", true), (j.State, j.Untrusted)));
        Assert.Equal(3, jobs.Count(j => j.Commit == second));
        Assert.DoesNotContain(await DrainAsync("claimer-fork-push"), j => j.Project == "fork-push");
        await WaitForStatusAsync(repo, second, s => s.Description == CommitStatusSummary.AwaitingApproval("perf:run"));
    }

    [Theory]
    [InlineData(null, "NONE")] // a branch of the repository itself: only people with write access can push it
    [InlineData("octocat/fork-member", "MEMBER")]
    [InlineData("octocat/fork-owner", "OWNER")]
    [InlineData("octocat/fork-collab", "COLLABORATOR")]
    public async Task Same_repository_and_members_pull_requests_run_at_once(string? fork, string association)
    {
        var slug = "trusted-" + association.ToLowerInvariant() + (fork is null ? "-same" : "-fork");
        var repo = await ProjectAsync(slug);
        var head = GitHubFixture.Sha(slug);
        var response = await DeliverAsync(PullRequestPayloads.PullRequest("opened", 5, repo, head, fork: fork, association: association));
        Assert.Equal(3, (await response.Content.ReadFromJsonAsync<WebhookReply>())!.Jobs);
        Assert.All(await JobsAsync(slug), j => Assert.Equal(("Queued", false), (j.State, j.Untrusted)));
        Assert.False(Assert.Single(await DrainAsync($"claimer-{slug}"), j => j.Project == slug).Untrusted);
        await WaitForStatusAsync(repo, head, s => s.Description!.StartsWith("Benchmarking on", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_push_by_someone_else_to_a_members_fork_waits_for_approval()
    {
        var repo = await ProjectAsync("fork-member-push");
        var (first, second) = (GitHubFixture.Sha("fork-member-push-1"), GitHubFixture.Sha("fork-member-push-2"));
        await DeliverAsync(PullRequestPayloads.PullRequest("opened", 6, repo, first, fork: "octocat/fork-member-push", association: "MEMBER"));
        // The payload's author_association is still the author's; the sender is who pushed.
        await DeliverAsync(PullRequestPayloads.PullRequest("synchronize", 6, repo, second, fork: "octocat/fork-member-push", association: "MEMBER",
            sender: "forks-friend", before: first));
        var jobs = await JobsAsync("fork-member-push");
        Assert.All(jobs.Where(j => j.Commit == second), j => Assert.Equal(("AwaitingApproval", true), (j.State, j.Untrusted)));

        // The author's own next push runs again at once.
        var third = GitHubFixture.Sha("fork-member-push-3");
        await DeliverAsync(PullRequestPayloads.PullRequest("synchronize", 6, repo, third, fork: "octocat/fork-member-push", association: "MEMBER", before: second));
        Assert.All((await JobsAsync("fork-member-push")).Where(j => j.Commit == third), j => Assert.Equal("Queued", j.State));
    }

    [Fact]
    public async Task Policy_none_queues_nothing_and_says_so_and_policy_all_runs_outsiders_flagged_untrusted()
    {
        var admin = await fixture.App.ClientWithScopesAsync(Scopes.Admin);
        var created = await admin.PostAsJsonAsync("/api/v1/projects",
            new { slug = "policy-all", name = "all", gitHubRepository = "octo/policy-all", pullRequests = new { run = "all" } });
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Equal(new Projects.PullRequestSettingsDto("all", "perf:run"), (await created.Content.ReadFromJsonAsync<Projects.ProjectDto>())!.PullRequests);
        var repoNone = await ProjectAsync("policy-none");
        Assert.Equal(new Projects.PullRequestSettingsDto("members", "perf:run"),
            (await admin.GetFromJsonAsync<Projects.ProjectDto>("/api/v1/projects/policy-none"))!.PullRequests);

        var patched = await admin.PatchAsJsonAsync("/api/v1/projects/policy-none", new { pullRequests = new { run = "none" } });
        Assert.Equal(new Projects.PullRequestSettingsDto("none", "perf:run"), (await patched.Content.ReadFromJsonAsync<Projects.ProjectDto>())!.PullRequests);
        var invalid = await admin.PatchAsJsonAsync("/api/v1/projects/policy-none", new { pullRequests = new { run = "everyone", approvalLabel = "" } });
        Assert.Equal(HttpStatusCode.BadRequest, invalid.StatusCode);
        var problem = await invalid.Content.ReadAsStringAsync();
        Assert.Contains("pullRequests.run", problem);
        Assert.Contains("pullRequests.approvalLabel", problem);

        var head = GitHubFixture.Sha("policy-none");
        await DeliverAsync(PullRequestPayloads.PullRequest("opened", 7, repoNone, head));
        Assert.Empty(await JobsAsync("policy-none"));
        var status = await WaitForStatusAsync(repoNone, head, _ => true);
        Assert.Equal(("success", CommitStatusSummary.NotBenchmarked), (status.State, status.Description));

        var outsider = GitHubFixture.Sha("policy-all");
        await DeliverAsync(PullRequestPayloads.PullRequest("opened", 8, "octo/policy-all", outsider, fork: "mallory/policy-all", association: "NONE", author: "mallory"));
        Assert.All(await JobsAsync("policy-all"), j => Assert.Equal(("Queued", true), (j.State, j.Untrusted)));
        Assert.True(Assert.Single(await DrainAsync("claimer-policy-all"), j => j.Project == "policy-all").Untrusted);
    }

    [Fact]
    public async Task A_custom_approval_label_approves_and_the_default_one_then_does_not()
    {
        var admin = await fixture.App.ClientWithScopesAsync(Scopes.Admin);
        var repo = await ProjectAsync("fork-custom-label");
        (await admin.PatchAsJsonAsync("/api/v1/projects/fork-custom-label", new { pullRequests = new { approvalLabel = "safe to bench" } })).EnsureSuccessStatusCode();
        var head = GitHubFixture.Sha("fork-custom-label");
        await DeliverAsync(PullRequestPayloads.PullRequest("opened", 9, repo, head, fork: "mallory/x", association: "NONE", author: "mallory"));
        await WaitForStatusAsync(repo, head, s => s.Description == CommitStatusSummary.AwaitingApproval("safe to bench"));

        await DeliverAsync(PullRequestPayloads.PullRequest("labeled", 9, repo, head, fork: "mallory/x", association: "NONE", author: "mallory",
            sender: "maintainer", label: "perf:run"));
        Assert.All(await JobsAsync("fork-custom-label"), j => Assert.Equal("AwaitingApproval", j.State));
        await DeliverAsync(PullRequestPayloads.PullRequest("labeled", 9, repo, head, fork: "mallory/x", association: "NONE", author: "mallory",
            sender: "maintainer", label: "Safe To Bench"));
        Assert.All(await JobsAsync("fork-custom-label"), j => Assert.Equal("Queued", j.State));
    }
}
