using System.Globalization;

namespace PerfService.LoadTest;

/// <summary>What a load test does. Every run is bounded: by time (--seconds) and by a request budget (--max-requests).
/// The command line that fills it (flags, defaults, ranges, help) is <see cref="LoadCommandLine"/>.</summary>
public sealed record LoadOptions
{
    public required Uri Server { get; init; }
    public required string AdminToken { get; init; }
    public required string IngestToken { get; init; }
    public required string Database { get; init; }
    public string? Fixtures { get; init; }
    public int Agents { get; init; } = 50;
    public int Seconds { get; init; } = 60;
    /// <summary>Seconds all agents post before the measured <see cref="Seconds"/> start (their runs are verified, their
    /// latencies reported apart): a service's first seconds after a start are not its steady state. Its first minute
    /// still spends a tenth of the web role's CPU compiling code to its faster tiers, so the warm-up is half a minute.
    /// The measured seconds follow it at once, analysis mid-stream as in a service that has been running.</summary>
    public int WarmupSeconds { get; init; } = 30;
    public int Readers { get; init; } = 4;
    /// <summary>Pause of each simulated agent between two posts (± 50 % jitter); 0 posts back to back.</summary>
    public int ThinkMilliseconds { get; init; } = 1000;
    /// <summary>Pause of each reader between two requests.</summary>
    public int ReaderThinkMilliseconds { get; init; } = 100;
    public int MaxRequests { get; init; } = 200_000;
    public int MinResults { get; init; } = 50;
    public int MaxResults { get; init; } = 500;
    public int Samples { get; init; } = 20;
    /// <summary>Share of acknowledged posts repeated with the same key, one after the other.</summary>
    public double RepeatRate { get; init; } = 0.05;
    /// <summary>Share of posts sent twice at the same moment with the same key (the idempotency race).</summary>
    public double RaceRate { get; init; } = 0.02;
    /// <summary>Share of posts made of a real harness output from tests/fixtures instead of generic JSON.</summary>
    public double FixtureRate { get; init; } = 0.2;
    /// <summary>Whose commits the agents run: main's, shared by all agents of a profile, or each agent's own.</summary>
    public CommitModel Commits { get; init; } = CommitModel.Main;
    public double SloP99Milliseconds { get; init; } = 500;
    public int TimeoutSeconds { get; init; } = 30;
    public string Project { get; init; } = "load-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
    public int Seed { get; init; } = 42;
    public string? JsonReport { get; init; }
    /// <summary>After the load, how long to wait for the background analysis backlog to drain before reporting its lag.</summary>
    public int AnalysisWaitSeconds { get; init; } = 120;
    /// <summary>The service's processes, whose CPU time (<c>/proc/&lt;pid&gt;/stat</c>) is costed per run: "both", or
    /// "web" and "background".</summary>
    public IReadOnlyList<ServiceProcess> Processes { get; init; } = [];
}
