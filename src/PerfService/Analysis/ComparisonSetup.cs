using PerfService.PullRequests;

namespace PerfService.Analysis;

public static class ComparisonSetup
{
    public static WebApplicationBuilder AddComparison(this WebApplicationBuilder builder)
    {
        builder.Services.AddSingleton<SeriesReader>();
        builder.Services.AddSingleton<HistoryBaselineReader>();
        builder.Services.AddScoped<PullRequestInputs>();
        builder.Services.AddScoped<TargetChecker>();
        builder.Services.AddScoped<ChangePointUpdater>();
        builder.Services.AddScoped<SubmittedPullRequestRuns>();
        builder.Services.AddScoped<AnalysisBatch>();
        builder.Services.AddScoped<RunAnalysisJob>();
        builder.Services.AddSingleton<AnalysisConsumer>();
        builder.Services.AddHostedService<AnalysisConsumerService>();
        builder.Services.AddScoped<PullRequestComparisonJob>();
        builder.Services.AddScoped<PullRequestReports>();
        builder.Services.AddScoped<IPullRequestReportSource>(sp => sp.GetRequiredService<PullRequestReports>());
        return builder;
    }
}
