using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using PerfService.Dashboard;

namespace PerfService.PullRequests;

/// <summary>GitHub in (webhook: jobs for pull requests and default-branch pushes) and out (comment, check and commit status).</summary>
public static class GitHubSetup
{
    public static WebApplicationBuilder AddGitHub(this WebApplicationBuilder builder)
    {
        builder.Services.AddOptions<GitHubOptions>().BindConfiguration(GitHubOptions.Section).ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddSingleton<IValidateOptions<GitHubOptions>, GitHubOptionsValidator>();
        builder.Services.AddSingleton<GitHubAppJwt>();
        builder.Services.AddSingleton<GitHubClientProvider>();
        builder.Services.AddSingleton<GitHubRetry>();
        builder.Services.AddScoped<WebhookDispatcher>();
        builder.Services.AddSingleton<WebhookGate>();
        builder.Services.AddSingleton<PullRequestHeads>();
        builder.Services.AddScoped<PullRequestApprovals>();
        builder.Services.AddSingleton<GitHubPermissions>();
        builder.Services.AddScoped<PullRequestActions>();
        builder.Services.AddScoped<GitHubInteractions>();
        builder.Services.AddTransient<PullRequestNoticeJob>();
        builder.Services.AddScoped<PullRequestPublisher>();
        builder.Services.AddScoped<PublishOnChange>();
        builder.Services.AddScoped<Comparison.IPullRequestListener>(sp => sp.GetRequiredService<PublishOnChange>());
        builder.Services.AddScoped<Alerts.IAlertStateListener>(sp => sp.GetRequiredService<PublishOnChange>());
        builder.Services.AddTransient<PullRequestPublishJob>();
        // The real source is registered by the comparison feature (AddScoped after this call wins).
        builder.Services.TryAddScoped<IPullRequestReportSource, NoPullRequestReports>();
        return builder;
    }

    public static RouteGroupBuilder MapGitHubWebhook(this IEndpointRouteBuilder app)
    {
        var github = app.MapGroup("/api/v1/github").WithTags("GitHub").RequireRateLimiting(DashboardRateLimiting.Policy);
        // Authenticated by the delivery's HMAC signature, not by a PerfService token.
        github.MapPost("/webhook", GitHubWebhook.Receive).AllowAnonymous().WithSummary("Receive a GitHub webhook delivery")
            .WithDescription("Takes no token: the delivery is checked by its X-Hub-Signature-256 HMAC with the webhook secret before anything is read.");
        return github;
    }
}
