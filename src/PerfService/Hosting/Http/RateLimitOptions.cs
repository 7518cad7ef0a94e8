using System.ComponentModel.DataAnnotations;

namespace PerfService.Hosting.Http;

/// <summary>Requests per minute one token (or one client address, when anonymous) may make to the read API.</summary>
public sealed class RateLimitOptions
{
    public const string Section = "RateLimit";

    [Range(1, 1_000_000)]
    public int PermitPerMinute { get; set; } = 600;
}
