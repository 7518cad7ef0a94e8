using System.Globalization;
using System.Security.Claims;
using System.Threading.RateLimiting;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.Options;

namespace PerfService.Hosting.Http;

public static class DashboardRateLimiting
{
    public const string Policy = "dashboard-read";

    public static IServiceCollection AddDashboardRateLimiting(this IServiceCollection services) =>
        services.AddRateLimiter(o =>
        {
            o.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
            o.OnRejected = OnRejectedAsync;
            o.AddPolicy(
                Policy,
                http =>
                {
                    var permits = http
                        .RequestServices.GetRequiredService<IOptions<RateLimitOptions>>()
                        .Value.PermitPerMinute;
                    // A sliding window smooths the burst a fixed window allows at each minute boundary.
                    return RateLimitPartition.GetSlidingWindowLimiter(
                        PartitionKey(http),
                        _ => new SlidingWindowRateLimiterOptions
                        {
                            PermitLimit = permits,
                            Window = TimeSpan.FromMinutes(1),
                            SegmentsPerWindow = 6,
                            QueueLimit = 0,
                        }
                    );
                }
            );
        });

    private static string PartitionKey(HttpContext http) =>
        http.User.FindFirstValue(ClaimTypes.NameIdentifier) is { } tokenId
            ? "token:" + tokenId
            : "ip:" + (http.Connection.RemoteIpAddress?.ToString() ?? "unknown");

    private static async ValueTask OnRejectedAsync(OnRejectedContext context, CancellationToken ct)
    {
        var http = context.HttpContext;
        if (context.Lease.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter))
            http.Response.Headers.RetryAfter = ((int)Math.Ceiling(retryAfter.TotalSeconds)).ToString(
                CultureInfo.InvariantCulture
            );
        var problems = http.RequestServices.GetRequiredService<IProblemDetailsService>();
        await problems.TryWriteAsync(
            new ProblemDetailsContext
            {
                HttpContext = http,
                ProblemDetails =
                {
                    Status = StatusCodes.Status429TooManyRequests,
                    Title = "Too many requests",
                    Detail = "The rate limit of this token or address is used up; retry after the Retry-After delay.",
                },
            }
        );
    }
}
