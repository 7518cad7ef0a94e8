using System.Globalization;
using System.Net;
using Octokit;

namespace PerfService.GitHub;

/// <summary>
/// Reads how long GitHub wants us to wait from a refused request, as its docs describe: Retry-After when present,
/// else X-RateLimit-Remaining: 0 with X-RateLimit-Reset (epoch seconds); a secondary limit without either means
/// at least a minute. A 403 without those is a permission problem, not a rate limit (null).
/// </summary>
public static class RateLimit
{
    private static readonly TimeSpan s_margin = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan s_secondaryDefault = TimeSpan.FromMinutes(1);

    public static TimeSpan? WaitFor(ApiException e, DateTimeOffset now)
    {
        if (e.StatusCode is not (HttpStatusCode.Forbidden or HttpStatusCode.TooManyRequests))
            return null;
        var headers = e.HttpResponse?.Headers;

        if (Header(headers, "Retry-After") is { } retryAfter)
        {
            if (int.TryParse(retryAfter, NumberStyles.None, CultureInfo.InvariantCulture, out var seconds))
                return TimeSpan.FromSeconds(seconds);
            if (
                DateTimeOffset.TryParse(
                    retryAfter,
                    CultureInfo.InvariantCulture,
                    DateTimeStyles.AssumeUniversal,
                    out var at
                )
            )
                return Until(at, now);
        }
        if (
            Header(headers, "X-RateLimit-Remaining") == "0"
            && long.TryParse(
                Header(headers, "X-RateLimit-Reset"),
                NumberStyles.None,
                CultureInfo.InvariantCulture,
                out var reset
            )
        )
            return Until(DateTimeOffset.FromUnixTimeSeconds(reset), now);
        if (
            e.StatusCode == HttpStatusCode.TooManyRequests
            || e is SecondaryRateLimitExceededException
            || e.Message.Contains("secondary rate limit", StringComparison.OrdinalIgnoreCase)
        )
            return s_secondaryDefault;
        return null;
    }

    // The reset is a whole second on GitHub's clock; a margin keeps us from arriving a moment early.
    private static TimeSpan Until(DateTimeOffset at, DateTimeOffset now) =>
        at - now > TimeSpan.Zero ? at - now + s_margin : s_margin;

    // HTTP header names are case-insensitive and GitHub sends them lower-case over HTTP/2; Octokit's dictionary is not.
    private static string? Header(IReadOnlyDictionary<string, string>? headers, string name) =>
        headers?.FirstOrDefault(h => string.Equals(h.Key, name, StringComparison.OrdinalIgnoreCase)).Value;
}
