using Microsoft.EntityFrameworkCore;
using PerfService.Auth;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Dashboard;

namespace Dashboard.BrowserTests;

[Collection(SiteCollection.Name)]
public class PullRequestApprovalPageTests(DashboardSite site)
{
    [Fact]
    public async Task A_waiting_pull_request_is_approved_from_its_page_with_an_admin_token_and_not_with_a_read_one()
    {
        const int pr = 31;
        var head = HistorySeed.Sha(31);
        var projectId = await site.WithDbAsync(db => db.Projects.Where(p => p.Slug == BrowserSeed.Project).Select(p => p.Id).SingleAsync());
        await site.WithDbAsync(async db =>
        {
            db.Jobs.Add(new Job
            {
                ProjectId = projectId, Kind = JobKind.PullRequest, Commit = head, BaseCommit = HistorySeed.Sha(14), PullRequest = pr, ProfileId = 1,
                State = JobState.AwaitingApproval, Untrusted = true, CreatedAt = DateTimeOffset.UtcNow, Branch = "outsider",
            });
            return await db.SaveChangesAsync();
        });
        try
        {
            var b = site.Browser;
            b.Open(site.Url($"/pr.html?project=demo&pr={pr}"));
            b.Script("sessionStorage.clear()");
            b.Open(site.Url($"/pr.html?project=demo&pr={pr}"));
            Assert.Contains("perf:run", b.WaitFor("#approval").Text);
            b.Screenshot("pr-awaiting-approval");

            // A read token is refused by the service, and the page says what is needed.
            b.WaitFor("#approve").Click();
            b.WaitFor("#token-input").SendKeys(site.Data.ReadToken);
            b.WaitFor("#token-save").Click();
            b.WaitFor("#approval-result", e => e.Text.Contains("admin token"));
            Assert.Equal(JobState.AwaitingApproval, await StateAsync());
            b.Errors(); // the refused request is logged as a failed fetch

            b.Script($"sessionStorage.setItem('perf.token', '{await site.CreateTokenAsync(Scopes.Admin)}')");
            b.WaitFor("#approve").Click();
            Assert.Contains("1 jobs queued", b.WaitFor("#approval-result", e => e.Text.Contains("Approved")).Text);
            Assert.Equal(JobState.Queued, await StateAsync());
            var approval = await site.WithDbAsync(db => db.PullRequestApprovals.AsNoTracking().SingleAsync(a => a.PullRequest == pr));
            Assert.Equal((head, "token:test-admin", "api"), (approval.HeadCommit, approval.ApprovedBy, approval.Source));
            Assert.Empty(b.Errors());
        }
        finally
        {
            // The other pages' tests count the queue: leave it as the seed made it.
            await site.WithDbAsync(db => db.Jobs.Where(j => j.PullRequest == pr).ExecuteDeleteAsync());
        }

        Task<JobState> StateAsync() => site.WithDbAsync(db => db.Jobs.Where(j => j.PullRequest == pr).Select(j => j.State).SingleAsync());
    }
}
