using System.Globalization;

namespace PerfService.LoadTest;

/// <summary>Command-line options. Every run is bounded: by time (--seconds) and by a request budget (--max-requests).</summary>
public sealed record LoadOptions
{
    public required Uri Server { get; init; }
    public required string AdminToken { get; init; }
    public required string IngestToken { get; init; }
    public required string Database { get; init; }
    public string? Fixtures { get; init; }
    public int Agents { get; init; } = 50;
    public int Seconds { get; init; } = 60;
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
    public double SloP99Milliseconds { get; init; } = 500;
    public int TimeoutSeconds { get; init; } = 30;
    public string Project { get; init; } = "load-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
    public int Seed { get; init; } = 42;
    public string? JsonReport { get; init; }
    /// <summary>After the load, how long to wait for the background analysis backlog to drain before reporting its lag.</summary>
    public int AnalysisWaitSeconds { get; init; } = 120;

    public const string Usage = """
        usage: PerfService.LoadTest --server URL --admin-token T --ingest-token T --db CONNECTION [options]
          --agents N          simulated agents posting runs (50)
          --seconds S         how long they post (60)
          --readers R         concurrent readers of the read API (4), pausing --reader-think-ms between calls (100)
          --think-ms MS       each agent's pause between posts, ±50 % jitter (1000; 0 = back to back)
          --max-requests N    request budget over everything (200000)
          --results MIN-MAX   results per generic-JSON run (50-500), each with --samples samples (20)
          --fixtures DIR      tests/fixtures: real harness outputs mixed in (--fixture-rate, 0.2)
          --repeat-rate F     share of runs posted again with the same key (0.05); --race-rate F: twice at once (0.02)
          --slo-p99-ms MS     latency target for the verdict line (500)
          --project SLUG      project to create (load-<timestamp>)
          --json-report FILE  also write the figures as JSON
          --analysis-wait S   after the load, wait up to S s for the analysis backlog to drain, then report its lag (120)
        Exit code: 0 when every request succeeded and every acknowledged run is stored whole, once; 1 on errors or lost
        data; 2 on bad arguments.
        """;

    public static LoadOptions Parse(string[] args)
    {
        var map = new Dictionary<string, string>(StringComparer.Ordinal);
        for (var i = 0; i < args.Length; i++)
        {
            if (!args[i].StartsWith("--", StringComparison.Ordinal) || i + 1 >= args.Length)
                throw new ArgumentException($"unexpected argument '{args[i]}'");
            map[args[i]] = args[++i];
        }
        string Req(string name) => map.TryGetValue(name, out var v) ? v : throw new ArgumentException($"{name} is required");
        int Int(string name, int fallback, int min, int max)
        {
            if (!map.TryGetValue(name, out var v)) return fallback;
            var n = int.Parse(v, CultureInfo.InvariantCulture);
            return n >= min && n <= max ? n : throw new ArgumentException($"{name} must be between {min} and {max}");
        }
        double Dbl(string name, double fallback, double min, double max)
        {
            if (!map.TryGetValue(name, out var v)) return fallback;
            var d = double.Parse(v, CultureInfo.InvariantCulture);
            return d >= min && d <= max ? d : throw new ArgumentException($"{name} must be between {min} and {max}");
        }

        var (minResults, maxResults) = (50, 500);
        if (map.TryGetValue("--results", out var range))
        {
            var parts = range.Split('-');
            minResults = int.Parse(parts[0], CultureInfo.InvariantCulture);
            maxResults = int.Parse(parts[^1], CultureInfo.InvariantCulture);
            if (minResults < 1 || maxResults < minResults || maxResults > 5000) throw new ArgumentException("--results must be MIN-MAX within 1-5000");
        }
        var server = new Uri(Req("--server").TrimEnd('/') + "/");
        if (!server.IsLoopback) throw new ArgumentException("--server must be a loopback address: the load test never leaves this machine");
        var known = new HashSet<string>
        {
            "--server", "--admin-token", "--ingest-token", "--db", "--fixtures", "--agents", "--seconds", "--readers", "--think-ms", "--reader-think-ms",
            "--max-requests", "--results", "--samples", "--repeat-rate", "--race-rate", "--fixture-rate", "--slo-p99-ms", "--timeout-seconds",
            "--project", "--seed", "--json-report", "--analysis-wait",
        };
        if (map.Keys.FirstOrDefault(k => !known.Contains(k)) is { } unknown) throw new ArgumentException($"unknown option {unknown}");

        return new LoadOptions
        {
            Server = server,
            AdminToken = Req("--admin-token"),
            IngestToken = Req("--ingest-token"),
            Database = Req("--db"),
            Fixtures = map.GetValueOrDefault("--fixtures"),
            Agents = Int("--agents", 50, 1, 1000),
            Seconds = Int("--seconds", 60, 1, 3600),
            Readers = Int("--readers", 4, 0, 100),
            ThinkMilliseconds = Int("--think-ms", 1000, 0, 600_000),
            ReaderThinkMilliseconds = Int("--reader-think-ms", 100, 0, 600_000),
            MaxRequests = Int("--max-requests", 200_000, 1, 10_000_000),
            MinResults = minResults,
            MaxResults = maxResults,
            Samples = Int("--samples", 20, 1, 1000),
            RepeatRate = Dbl("--repeat-rate", 0.05, 0, 1),
            RaceRate = Dbl("--race-rate", 0.02, 0, 1),
            FixtureRate = Dbl("--fixture-rate", 0.2, 0, 1),
            SloP99Milliseconds = Dbl("--slo-p99-ms", 500, 1, 600_000),
            TimeoutSeconds = Int("--timeout-seconds", 30, 1, 600),
            Project = map.GetValueOrDefault("--project") ?? "load-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture),
            Seed = Int("--seed", 42, 0, int.MaxValue),
            JsonReport = map.GetValueOrDefault("--json-report"),
            AnalysisWaitSeconds = Int("--analysis-wait", 120, 0, 3600),
        };
    }
}
