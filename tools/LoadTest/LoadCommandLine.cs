using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using System.Numerics;

namespace PerfService.LoadTest;

/// <summary>
/// The load tool's command line (System.CommandLine): every flag with its default, range and help text, declared once.
/// Exit codes: 0 when every request succeeded and every acknowledged run is stored whole, once; 1 on errors or lost
/// data; 2 on bad arguments (and without any argument, after the help).
/// </summary>
public static class LoadCommandLine
{
    private static readonly LoadOptions Defaults = new() { Server = new Uri("http://127.0.0.1/"), AdminToken = "", IngestToken = "", Database = "" };

    /// <summary>Parses <paramref name="args"/>: the options, or null with the help or the errors already written (then <paramref name="exit"/> says how to end).</summary>
    public static LoadOptions? Parse(string[] args, out int exit, TextWriter? output = null, TextWriter? error = null)
    {
        LoadOptions? parsed = null;
        var root = Create(o => parsed = o);
        var configuration = new InvocationConfiguration { Output = output ?? Console.Out, Error = error ?? Console.Error };
        var code = root.Parse(args is [] ? ["--help"] : args).Invoke(configuration);
        exit = parsed is not null ? 0 : args is [] ? 2 : code == 0 ? 0 : 2;
        return parsed;
    }

    public static RootCommand Create(Action<LoadOptions> run)
    {
        var server = new Option<Uri>("--server") { Description = "The service's base URL, on loopback", Required = true, CustomParser = ParseServer };
        var adminToken = new Option<string>("--admin-token") { Description = "Token that creates the project (service admin)", Required = true };
        var ingestToken = new Option<string>("--ingest-token") { Description = "Token the simulated agents post runs with", Required = true };
        var database = new Option<string>("--db") { Description = "Connection string of the service's database, for the final check", Required = true };
        var fixtures = new Option<string?>("--fixtures") { Description = "tests/fixtures: real harness outputs mixed in (--fixture-rate)" };
        var agents = Int("--agents", "Simulated agents posting runs", Defaults.Agents, 1, 1000);
        var seconds = Int("--seconds", "How long they post", Defaults.Seconds, 1, 3600);
        var warmup = Int("--warmup-seconds", "All agents post this long before the measured seconds start (latencies reported apart); the measured seconds follow it at once",
            Defaults.WarmupSeconds, 0, 3600);
        var readers = Int("--readers", "Concurrent readers of the read API", Defaults.Readers, 0, 100);
        var thinkMs = Int("--think-ms", "Each agent's pause between posts, ±50 % jitter (0 = back to back)", Defaults.ThinkMilliseconds, 0, 600_000);
        var readerThinkMs = Int("--reader-think-ms", "Each reader's pause between calls", Defaults.ReaderThinkMilliseconds, 0, 600_000);
        var maxRequests = Int("--max-requests", "Request budget over everything", Defaults.MaxRequests, 1, 10_000_000);
        var results = new Option<ResultRange>("--results")
        {
            Description = "Results per generic-JSON run, MIN-MAX within 1-5000",
            DefaultValueFactory = _ => new ResultRange(Defaults.MinResults, Defaults.MaxResults),
            CustomParser = ParseRange,
        };
        var samples = Int("--samples", "Samples per result", Defaults.Samples, 1, 1000);
        var repeatRate = Rate("--repeat-rate", "Share of runs posted again with the same key", Defaults.RepeatRate);
        var raceRate = Rate("--race-rate", "Share of runs posted twice at once with the same key", Defaults.RaceRate);
        var fixtureRate = Rate("--fixture-rate", "Share of runs made of a real harness output from --fixtures", Defaults.FixtureRate);
        var commits = new Option<string>("--commits")
        {
            Description = "main: the agents of a profile run main's commits in turn, as real agents do; per-agent: each agent its own " +
                "timeline, so nearly every point arrives out of commit order (a stress test of replays)",
            DefaultValueFactory = _ => "main",
        };
        commits.AcceptOnlyFromAmong("main", "per-agent");
        var sloP99 = Number("--slo-p99-ms", "Latency target for the verdict line", Defaults.SloP99Milliseconds, 1, 600_000);
        var timeoutSeconds = Int("--timeout-seconds", "Timeout of one request", Defaults.TimeoutSeconds, 1, 600);
        var project = new Option<string?>("--project") { Description = "Project to create (default: load-<timestamp>)" };
        var seed = Int("--seed", "Random seed", Defaults.Seed, 0, int.MaxValue);
        var jsonReport = new Option<string?>("--json-report") { Description = "Also write the figures as JSON to this file" };
        var analysisWait = Int("--analysis-wait", "After the load, wait up to S s for the analysis backlog to drain, then report its lag",
            Defaults.AnalysisWaitSeconds, 0, 3600);
        var servicePid = new Option<int?>("--service-pid") { Description = "Process id of the service (the web role when --background-pid is given), for CPU per run" };
        var backgroundPid = new Option<int?>("--background-pid") { Description = "Process id of the background role when it runs apart, for CPU per analysed run" };

        var root = new RootCommand("PerfService.LoadTest: simulated agents posting runs and readers on the read API against a running service " +
            "(loopback only), latency percentiles, then a check that every acknowledged run is stored whole, exactly once")
        {
            server, adminToken, ingestToken, database, fixtures, agents, seconds, warmup, readers, thinkMs, readerThinkMs, maxRequests, results,
            samples, repeatRate, raceRate, fixtureRate, commits, sloP99, timeoutSeconds, project, seed, jsonReport, analysisWait, servicePid, backgroundPid,
        };
        root.SetAction(parse =>
        {
            var (minResults, maxResults) = parse.GetValue(results)!;
            run(new LoadOptions
            {
                Server = parse.GetValue(server)!,
                AdminToken = parse.GetValue(adminToken)!,
                IngestToken = parse.GetValue(ingestToken)!,
                Database = parse.GetValue(database)!,
                Fixtures = parse.GetValue(fixtures),
                Agents = parse.GetValue(agents),
                Seconds = parse.GetValue(seconds),
                WarmupSeconds = parse.GetValue(warmup),
                Readers = parse.GetValue(readers),
                ThinkMilliseconds = parse.GetValue(thinkMs),
                ReaderThinkMilliseconds = parse.GetValue(readerThinkMs),
                MaxRequests = parse.GetValue(maxRequests),
                MinResults = minResults,
                MaxResults = maxResults,
                Samples = parse.GetValue(samples),
                RepeatRate = parse.GetValue(repeatRate),
                RaceRate = parse.GetValue(raceRate),
                FixtureRate = parse.GetValue(fixtureRate),
                Commits = parse.GetValue(commits) == "per-agent" ? CommitModel.PerAgent : CommitModel.Main,
                SloP99Milliseconds = parse.GetValue(sloP99),
                TimeoutSeconds = parse.GetValue(timeoutSeconds),
                Project = parse.GetValue(project) ?? Defaults.Project,
                Seed = parse.GetValue(seed),
                JsonReport = parse.GetValue(jsonReport),
                AnalysisWaitSeconds = parse.GetValue(analysisWait),
                Processes = Processes(parse.GetValue(servicePid), parse.GetValue(backgroundPid)),
            });
            return 0;
        });
        return root;
    }

    private static IReadOnlyList<ServiceProcess> Processes(int? service, int? background) =>
        (service, background) switch
        {
            ({ } web, { } bg) => [new("web", web), new("background", bg)],
            ({ } both, null) => [new("both", both)],
            (null, { } bg) => [new("background", bg)],
            _ => [],
        };

    private static Option<int> Int(string name, string description, int fallback, int min, int max) =>
        Ranged(name, description, fallback, min, max, "a whole number", NumberStyles.AllowLeadingSign);

    private static Option<double> Rate(string name, string description, double fallback) => Number(name, description, fallback, 0, 1);

    private static Option<double> Number(string name, string description, double fallback, double min, double max) =>
        Ranged(name, description, fallback, min, max, "a number", NumberStyles.Float);

    /// <summary>A number option in [min, max]. Parsed and checked in one place, so a bad value is one clear error.</summary>
    private static Option<T> Ranged<T>(string name, string description, T fallback, T min, T max, string what, NumberStyles styles)
        where T : struct, INumber<T> => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => fallback,
        CustomParser = r =>
        {
            var text = r.Tokens.Single().Value;
            if (T.TryParse(text, styles, CultureInfo.InvariantCulture, out var n) && n >= min && n <= max) return n;
            r.AddError(string.Create(CultureInfo.InvariantCulture, $"{name} must be {what} between {min} and {max}, not '{text}'"));
            return fallback;
        },
    };

    private static Uri? ParseServer(ArgumentResult result)
    {
        var text = result.Tokens.Single().Value;
        if (!Uri.TryCreate(text.TrimEnd('/') + "/", UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https"))
            result.AddError($"--server '{text}' is not an http(s) URL");
        else if (!uri.IsLoopback)
            result.AddError("--server must be a loopback address: the load test never leaves this machine");
        else
            return uri;
        return null;
    }

    private static ResultRange ParseRange(ArgumentResult result)
    {
        var text = result.Tokens.Single().Value;
        var parts = text.Split('-');
        if (parts.Length is 1 or 2
            && int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var min)
            && int.TryParse(parts[^1], NumberStyles.None, CultureInfo.InvariantCulture, out var max)
            && min >= 1 && max >= min && max <= 5000)
            return new ResultRange(min, max);
        result.AddError($"--results '{text}' must be MIN-MAX within 1-5000");
        return new ResultRange(Defaults.MinResults, Defaults.MaxResults);
    }

    /// <summary>--results MIN-MAX; printed as such in the help's default.</summary>
    public sealed record ResultRange(int Min, int Max)
    {
        public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Min}-{Max}");
    }
}
