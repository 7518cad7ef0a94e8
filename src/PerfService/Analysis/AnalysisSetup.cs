namespace PerfService.Analysis;

public static class AnalysisSetup
{
    public static WebApplicationBuilder AddAnalysis(this WebApplicationBuilder builder)
    {
        builder.Services.AddSingleton<SeriesReader>();
        builder.Services.AddSingleton<HistoryBaselineReader>();
        builder.Services.AddSingleton<SeriesStateCache>();
        builder.Services.AddScoped<TargetChecker>();
        builder.Services.AddScoped<ChangePointUpdater>();
        builder.Services.AddScoped<AnalysisBatch>();
        builder.Services.AddScoped<RunAnalysisJob>();
        builder.Services.AddSingleton<AnalysisYield>();
        builder.Services.AddSingleton<AnalysisConsumer>();
        builder.Services.AddHostedService<AnalysisConsumerService>();
        return builder;
    }
}
