using PerfService.Core.Results;

namespace PerfService.Core.Parsing.K6;

/// <summary>
/// What k6 does not say in its summaries and must be known: units and "which way is better" per metric. The legacy
/// <c>--summary-export</c> has no type/contains fields at all, so built-in metric names are listed here.
/// </summary>
internal static class K6Rules
{
    // Built-in k6 trends measured in milliseconds (the summary always reports time trends in ms).
    private static readonly HashSet<string> _timeMetrics = new(StringComparer.Ordinal)
    {
        "http_req_duration",
        "http_req_blocked",
        "http_req_connecting",
        "http_req_tls_handshaking",
        "http_req_sending",
        "http_req_waiting",
        "http_req_receiving",
        "iteration_duration",
        "group_duration",
        "grpc_req_duration",
        "ws_connecting",
        "ws_session_duration",
        "ws_ping",
        "browser_web_vital_fcp",
        "browser_web_vital_lcp",
        "browser_web_vital_fid",
        "browser_web_vital_inp",
        "browser_web_vital_ttfb",
        "browser_http_req_duration",
    };

    /// <summary>Metric names that mark a summary as k6's, for detection (any one suffices).</summary>
    public static readonly HashSet<string> WellKnown = new(StringComparer.Ordinal)
    {
        "http_reqs",
        "http_req_duration",
        "http_req_failed",
        "iterations",
        "iteration_duration",
        "vus",
        "vus_max",
        "checks",
        "data_received",
        "data_sent",
        "grpc_reqs",
        "grpc_req_duration",
        "group_duration",
    };

    /// <summary>"http_req_duration{expected_response:true}" is a submetric of "http_req_duration".</summary>
    public static string BaseName(string metric) => metric.IndexOf('{') is var i and > 0 ? metric[..i] : metric;

    /// <summary>The legacy export's missing "contains": time for the built-in time trends, data for data_*.</summary>
    public static string LegacyContains(string metric) =>
        BaseName(metric) switch
        {
            var b when _timeMetrics.Contains(b) => "time",
            "data_received" or "data_sent" => "data",
            _ => "default",
        };

    /// <summary>Unit of a trend or gauge value. Custom non-time trends are unitless in k6, so the unit is
    /// empty.</summary>
    public static string ValueUnit(string contains) =>
        contains switch
        {
            "time" => "ms",
            "data" => "B",
            _ => "",
        };

    public static string CountUnit(string contains) => contains == "data" ? "B" : "count";

    public static string RateUnit(string metric, string contains) =>
        BaseName(metric) switch
        {
            _ when contains == "data" => "B/s",
            "http_reqs" or "grpc_reqs" => "req/s",
            "iterations" => "iterations/s",
            _ => "count/s",
        };

    /// <summary>
    /// Rates and counters that count bad events (http_req_failed, custom "errors", "fail_rate"): lower is better.
    /// Everything else counted (requests, iterations, bytes, passed checks) is throughput: higher is better.
    /// </summary>
    public static bool CountsFailures(string metric)
    {
        var b = BaseName(metric).ToLowerInvariant();
        return b.Contains("fail", StringComparison.Ordinal)
            || b.Contains("error", StringComparison.Ordinal)
            || b.Contains("timeout", StringComparison.Ordinal)
            || b.Contains("drop", StringComparison.Ordinal);
    }

    public static Direction Better(bool higher) => higher ? Direction.HigherIsBetter : Direction.LowerIsBetter;

    /// <summary>"p(95)" → "p95", "p(99.9)" → "p99.9": parentheses make awkward measure names in URLs and
    /// keys.</summary>
    public static string StatName(string stat) =>
        stat.StartsWith("p(", StringComparison.Ordinal) && stat.EndsWith(')') ? "p" + stat[2..^1].Trim() : stat;

    public static bool IsTrendStat(string stat) =>
        stat is "avg" or "min" or "med" or "max" || stat.StartsWith("p(", StringComparison.Ordinal);
}
