using System.Net;
using Microsoft.Extensions.Options;
using Octokit;

namespace PerfService.GitHub;

/// <summary>
/// Runs one idempotent step against GitHub. Rate limits are waited out when they reset within
/// GitHub:MaxRateLimitWaitSeconds, otherwise <see cref="GitHubRateLimitedException"/> tells the job to come back at the
/// reset; 5xx and network errors are retried with exponential back-off a few times before the job fails and Hangfire's
/// own, longer back-off takes over. Steps are retried whole, so a retried "create" first looks for what it may have
/// posted.
/// </summary>
public sealed class GitHubRetry(IOptions<GitHubOptions> options, TimeProvider time, ILogger<GitHubRetry> logger)
{
    private const int MaxRateLimitWaits = 3;

    public async Task<T> RunAsync<T>(string step, Func<Task<T>> action, CancellationToken ct)
    {
        var o = options.Value;
        int failures = 0,
            waits = 0;
        while (true)
        {
            try
            {
                return await action();
            }
            catch (ApiException e) when (RateLimit.WaitFor(e, time.GetUtcNow()) is { } wait)
            {
                if (wait > TimeSpan.FromSeconds(o.MaxRateLimitWaitSeconds) || ++waits > MaxRateLimitWaits)
                    throw new GitHubRateLimitedException(time.GetUtcNow() + wait, e);
                logger.LogWarning(
                    "GitHub rate limit during {Step} ({Status}); waiting {Wait}",
                    step,
                    (int)e.StatusCode,
                    wait
                );
                await Task.Delay(wait, time, ct);
            }
            catch (Exception e) when (IsTransient(e, ct) && ++failures < o.TransientAttempts)
            {
                var delay = TimeSpan.FromMilliseconds(o.TransientDelayMilliseconds * Math.Pow(2, failures - 1));
                logger.LogWarning(
                    "GitHub failed during {Step} ({Message}); try {Try} of {Tries} in {Delay}",
                    step,
                    e.Message,
                    failures + 1,
                    o.TransientAttempts,
                    delay
                );
                await Task.Delay(delay, time, ct);
            }
        }
    }

    public Task RunAsync(string step, Func<Task> action, CancellationToken ct) =>
        RunAsync(
            step,
            async () =>
            {
                await action();
                return true;
            },
            ct
        );

    private static bool IsTransient(Exception e, CancellationToken ct) =>
        e switch
        {
            ApiException a => a.StatusCode >= HttpStatusCode.InternalServerError,
            HttpRequestException => true,
            // A timeout, not our own cancellation.
            OperationCanceledException => !ct.IsCancellationRequested,
            _ => false,
        };
}

/// <summary>GitHub asked us to stop until <see cref="RetryAt"/>, later than a job should sleep.</summary>
public sealed class GitHubRateLimitedException(DateTimeOffset retryAt, Exception inner)
    : Exception($"GitHub rate limit until {retryAt:O}", inner)
{
    public DateTimeOffset RetryAt { get; } = retryAt;
}
