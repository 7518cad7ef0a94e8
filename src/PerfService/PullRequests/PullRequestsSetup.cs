using PerfService.Alerts;

namespace PerfService.PullRequests;

/// <summary>The pull-request feature: heads and trust, approvals and re-runs, judging a pull request's runs, its report
/// and its publishing.</summary>
public static class PullRequestsSetup
{
    public static WebApplicationBuilder AddPullRequests(this WebApplicationBuilder builder)
    {
        builder.Services.AddScoped<PullRequestHeads>();
        builder.Services.AddScoped<PullRequestEvents>();
        builder.Services.AddScoped<PullRequestApprovals>();
        builder.Services.AddScoped<PullRequestActions>();
        builder.Services.AddScoped<PullRequestInputs>();
        builder.Services.AddScoped<SubmittedPullRequestRuns>();
        builder.Services.AddScoped<PullRequestComparisonJob>();
        builder.Services.AddScoped<PullRequestReports>();
        builder.Services.AddTransient<PullRequestPublishJob>();
        builder.Services.AddTransient<PullRequestNoticeJob>();
        builder.Services.AddScoped<ITriageFollowUp, RepublishOnTriage>();
        return builder;
    }
}
