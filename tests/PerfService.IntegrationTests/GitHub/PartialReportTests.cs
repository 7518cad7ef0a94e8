using PerfService.PullRequests;
using Microsoft.Extensions.DependencyInjection;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>
/// A profile whose job has succeeded but whose verdicts are not written yet is still running as far as the pull
/// request is concerned: the report, the status and the check wait for it instead of turning green (or red) on part of
/// the results, which auto-merge could act on.
/// </summary>
public class PartialReportTests(RealReportsGitHubAppFixture fixture) : IClassFixture<RealReportsGitHubAppFixture>
{
    [Fact]
    public async Task A_succeeded_job_without_verdicts_is_pending_until_its_comparison_has_run()
    {
        var head = await fixture.OpenJudgedAsync("partial", 1, judgeAll: false, "Demo.Parse");
        var project = await fixture.ProjectIdAsync("partial");
        var profiles = await fixture.App.WithDbAsync(db => db.Jobs.Where(j => j.ProjectId == project).OrderBy(j => j.ProfileId)
            .Select(j => j.Profile!.Name).ToListAsync());

        var report = await ReportAsync(project, 1);
        Assert.Equal(profiles.Skip(1).Order(), report!.PendingProfiles);
        Assert.Equal("pending", fixture.GitHub.StatusesOf("octo/partial", head).Last().State);
        Assert.Equal("in_progress", Assert.Single(fixture.GitHub.CheckRunsOf("octo/partial", head)).Status);

        // Their comparison runs (nothing to compare on those profiles): the result is complete.
        await fixture.JudgeOthersAsync("partial", 1);
        Assert.Empty((await ReportAsync(project, 1))!.PendingProfiles);
        await fixture.PublishAsync(project, 1);
        Assert.Equal("failure", fixture.GitHub.StatusesOf("octo/partial", head).Last().State);
        Assert.Equal(("completed", "failure"), (fixture.GitHub.CheckRunsOf("octo/partial", head).Last().Status,
            fixture.GitHub.CheckRunsOf("octo/partial", head).Last().Conclusion));
    }

    private async Task<Core.Reports.PullRequestReport?> ReportAsync(long project, int number)
    {
        await using var scope = fixture.App.Services.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<PullRequestReports>().BuildAsync(project, number, CancellationToken.None);
    }
}
