using Microsoft.Extensions.Options;
using PerfService.Hosting.Http;

namespace PerfService.GitHub;

/// <summary>
/// The GitHub transport: in (the webhook, verified and de-duplicated, dispatched to the pull-request feature,
/// default-branch
/// pushes and interactions) and out (client and App tokens, retries, comment, check and commit status).
/// </summary>
public static class GitHubSetup
{
    public static WebApplicationBuilder AddGitHub(this WebApplicationBuilder builder)
    {
        builder
            .Services.AddOptions<GitHubOptions>()
            .BindConfiguration(GitHubOptions.Section)
            .ValidateDataAnnotations()
            .ValidateOnStart();
        builder.Services.AddSingleton<IValidateOptions<GitHubOptions>, GitHubOptionsValidator>();
        builder.Services.AddSingleton<GitHubAppJwt>();
        builder.Services.AddSingleton<GitHubClientProvider>();
        builder.Services.AddSingleton<GitHubRetry>();
        builder.Services.AddScoped<WebhookDispatcher>();
        builder.Services.AddSingleton<WebhookGate>();
        builder.Services.AddSingleton<GitHubPermissions>();
        builder.Services.AddScoped<GitHubInteractions>();
        builder.Services.AddScoped<PullRequestPublisher>();
        return builder;
    }

    public static RouteGroupBuilder MapGitHubWebhook(this IEndpointRouteBuilder app)
    {
        var github = app.MapGroup("/api/v1/github")
            .WithTags("GitHub")
            .RequireRateLimiting(DashboardRateLimiting.Policy);
        // Authenticated by the delivery's HMAC signature, not by a PerfService token.
        github
            .MapPost("/webhook", GitHubWebhook.Receive)
            .AllowAnonymous()
            .WithSummary("Receive a GitHub webhook delivery")
            .WithDescription(
                "Takes no token: the delivery is checked by its X-Hub-Signature-256 HMAC with the webhook secret before anything is read."
            );
        return github;
    }
}
