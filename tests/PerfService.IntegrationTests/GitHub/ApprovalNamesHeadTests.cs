using Microsoft.AspNetCore.Mvc;
using PerfService.AgentJobs;
using PerfService.PullRequests;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>
/// An approval names the head the maintainer read. The attack: an outsider opens head X, the maintainer reads X, the
/// outsider pushes Y before the maintainer presses approve. Approving X must not release Y.
/// </summary>
public class ApprovalNamesHeadTests(RealReportsGitHubFixture fixture) : IClassFixture<RealReportsGitHubFixture>
{
    private async Task<List<JobDto>> JobsAsync(string project) =>
        (await fixture.App.CreateClient().GetFromJsonAsync<List<JobDto>>($"/api/v1/jobs?project={project}&limit=1000"))!;

    [Fact]
    public async Task Approving_a_head_that_was_replaced_is_a_409_naming_the_current_head_and_the_current_head_is_approved_by_name()
    {
        await fixture.CreateProjectAsync("approve-head", "octo/approve-head");
        const string repo = "octo/approve-head";
        var (read, pushed) = (GitHubFixture.Sha("approve-head-read"), GitHubFixture.Sha("approve-head-pushed"));
        await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("opened", 7, repo, read, fork: "mallory/approve-head", association: "NONE", author: "mallory"));
        // The maintainer's page shows the head it loaded.
        var shown = (await fixture.App.CreateClient().GetFromJsonAsync<PullRequestReportShape>("/api/v1/projects/approve-head/pulls/7/report"))!;
        Assert.Equal(read, shown.HeadCommit);
        await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("synchronize", 7, repo, pushed, fork: "mallory/approve-head", association: "NONE",
            author: "mallory", before: read));

        var admin = await fixture.App.ClientWithScopesAsync(Scopes.Admin);
        const string url = "/api/v1/projects/approve-head/pulls/7/approve";
        var stale = await admin.PostAsJsonAsync(url, new { headCommit = shown.HeadCommit });
        Assert.Equal(HttpStatusCode.Conflict, stale.StatusCode);
        var problem = (await stale.Content.ReadFromJsonAsync<ProblemDetails>())!;
        Assert.Contains(pushed, problem.Detail);
        Assert.Equal(pushed, problem.Extensions["currentHead"]?.ToString());
        // An approval that names nothing is refused too (what the page's button used to send).
        Assert.Equal(HttpStatusCode.BadRequest, (await admin.PostAsync(url, null)).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await admin.PostAsJsonAsync(url, new { headCommit = "" })).StatusCode);
        Assert.All((await JobsAsync("approve-head")).Where(j => j.Commit == pushed), j => Assert.Equal("AwaitingApproval", j.State));
        Assert.False(await fixture.App.WithDbAsync(db => db.PullRequestApprovals.AnyAsync(a => a.PullRequest == 7 && a.HeadCommit == pushed)));

        // Having read the new head, the maintainer approves it by name (a 7-digit prefix will do).
        var approved = await admin.PostAsJsonAsync(url, new { headCommit = pushed[..7] });
        Assert.Equal(HttpStatusCode.OK, approved.StatusCode);
        Assert.Equal(pushed, (await approved.Content.ReadFromJsonAsync<PullRequestApprovalDto>())!.HeadCommit);
        Assert.All((await JobsAsync("approve-head")).Where(j => j.Commit == pushed), j => Assert.Equal("Queued", j.State));
    }

    private sealed record PullRequestReportShape(string HeadCommit);
}
