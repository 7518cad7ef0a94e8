using System.ComponentModel.DataAnnotations;
using System.Net;

namespace PerfService.Hosting.Telemetry;

/// <summary>
/// Where Prometheus scrapes and who may. The scrape endpoint is not public: a caller needs a service-admin token
/// (Prometheus sends it with <c>authorization: { credentials: ... }</c>), or comes from one of
/// <see cref="MetricsAllowedNetworks"/> (a scraper inside the cluster network, without a token). Empty by default.
/// </summary>
public sealed class TelemetryOptions : IValidatableObject
{
    public const string Section = "Telemetry";

    /// <summary>The scrape path; empty turns the endpoint off (OTLP export alone).</summary>
    public string MetricsPath { get; set; } = "/metrics";

    /// <summary>CIDR networks (e.g. "10.0.0.0/8", "127.0.0.1/32") whose addresses may scrape without a token.</summary>
    public string[] MetricsAllowedNetworks { get; set; } = [];

    /// <summary>An agent that called the service within this time is online (it long-polls for jobs every minute or
    /// less).</summary>
    [Range(10, 86_400)]
    public int AgentOnlineSeconds { get; set; } = 180;

    /// <summary>How long the figures read from the database (jobs, agents, queues) are reused between
    /// scrapes.</summary>
    [Range(1, 3600)]
    public int SnapshotSeconds { get; set; } = 5;

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (
            MetricsPath.Length > 0
            && (
                !MetricsPath.StartsWith('/')
                || MetricsPath.Contains('?')
                || MetricsPath.StartsWith("/api/", StringComparison.Ordinal)
            )
        )
            yield return new ValidationResult(
                "Telemetry:MetricsPath must be a path starting with '/', outside /api/",
                [nameof(MetricsPath)]
            );
        foreach (var network in MetricsAllowedNetworks)
            if (!IPNetwork.TryParse(network, out _))
                yield return new ValidationResult(
                    $"Telemetry:MetricsAllowedNetworks: '{network}' is not a CIDR network",
                    [nameof(MetricsAllowedNetworks)]
                );
    }

    public IReadOnlyList<IPNetwork> AllowedNetworks() => [.. MetricsAllowedNetworks.Select(n => IPNetwork.Parse(n))];
}
