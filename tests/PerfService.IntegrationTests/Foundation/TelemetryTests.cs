using System.Globalization;
using System.Text.Json;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.Options;
using PerfService.IntegrationTests.Dashboard;

namespace PerfService.IntegrationTests.Foundation;

// OpenTelemetry subscribes to meters by name across the process, so another test host's "PerfService" gauges feed this
// host's /metrics too, and disposing that host ends the shared gauge streams. Alone (after the parallel classes) this
// class sees only its own host, as a real deployment does.
[Collection(Name)]
public class TelemetryTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    public const string Name = "Telemetry (alone)";

    [Fact]
    public async Task Metrics_are_refused_to_anonymous_callers_and_to_tokens_other_than_a_service_admin()
    {
        Assert.Equal(HttpStatusCode.Unauthorized, (await app.CreateClient().GetAsync("/metrics")).StatusCode);
        foreach (var scope in new[] { Scopes.Read, Scopes.Ingest, Scopes.Agent })
            Assert.Equal(HttpStatusCode.Forbidden, (await (await app.ClientWithScopesAsync(scope)).GetAsync("/metrics")).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await app.CreateClient().GetAsync("/api/v1/service/status")).StatusCode);
    }

    [Fact]
    public async Task A_scrape_after_an_ingest_finds_the_ingest_and_analysis_counters_moved()
    {
        await app.CreateProjectAsync("telemetry");
        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        var before = Parse(await admin.GetStringAsync("/metrics"));

        var runId = await HistorySeed.UploadGoAsync(ingest, "telemetry", 1);
        var results = (await app.WithDbAsync(db => Task.FromResult(db.Runs.Single(r => r.Id == runId).ResultCount)));

        // Analysis is a background job: scrape until it has run (the counters are the process's, so other test classes
        // may move them too; this run's own contribution is at least one run and its results).
        var after = await Eventually.WaitAsync(async () => Parse(await admin.GetStringAsync("/metrics")),
            m => Sum(m, "perfservice_analyses_total") > Sum(before, "perfservice_analyses_total"), TimeSpan.FromSeconds(60));
        Assert.True(Sum(after, "perfservice_runs_ingested_total") >= Sum(before, "perfservice_runs_ingested_total") + 1);
        Assert.True(Sum(after, "perfservice_results_ingested_total") >= Sum(before, "perfservice_results_ingested_total") + results);
        Assert.True(Sum(after, "perfservice_ingest_duration_seconds_count") >= Sum(before, "perfservice_ingest_duration_seconds_count") + 1);
        Assert.True(Sum(after, "perfservice_analysis_lag_seconds_count") > Sum(before, "perfservice_analysis_lag_seconds_count"));
        // The gauges read from this host's database: its one profile row per declared profile, no agent online.
        Assert.Contains(after.Keys, k => k.StartsWith("perfservice_agents_online{", StringComparison.Ordinal) && k.Contains("profile=\"i7-4790k\"", StringComparison.Ordinal));
        Assert.Contains(after.Keys, k => k.StartsWith("perfservice_background_jobs{", StringComparison.Ordinal) && k.Contains("state=\"failed\"", StringComparison.Ordinal));
        Assert.Contains(after.Keys, k => k.StartsWith("http_server_request_duration_seconds_count", StringComparison.Ordinal));

        // The Grafana dashboard and the alert rules in deploy/observability query only metrics the service exposes.
        var exposed = after.Keys.Select(k => k.Split('{')[0]).ToHashSet();
        var deploy = Path.GetFullPath(Path.Combine(Fixtures.Root, "..", "..", "deploy", "observability"));
        var used = Directory.EnumerateFiles(deploy).SelectMany(f => System.Text.RegularExpressions.Regex.Matches(File.ReadAllText(f),
            @"\b(perfservice|http_server|dotnet|process)_[a-z_]+\b").Select(m => m.Value)).ToHashSet();
        Assert.NotEmpty(used);
        var missing = used.Where(n => !exposed.Contains(n) && !exposed.Contains(n + "_count") && !RecordedOnEvents.Contains(Family(n))).Order().ToList();
        Assert.True(missing.Count == 0, "not exposed: " + string.Join(", ", missing) + "\nexposed: " + string.Join(", ", exposed.Order()));
    }

    // Instruments that appear at their first event, which an ingest does not cause: a claim, a publication, a GitHub
    // rate limit, a background job that throws.
    private static readonly HashSet<string> RecordedOnEvents =
        ["perfservice_jobs_claim_wait_seconds", "perfservice_github_publishes_total", "perfservice_github_rate_limit_wait_seconds", "perfservice_background_failures_total"];

    private static string Family(string name) => System.Text.RegularExpressions.Regex.Replace(name, "_(bucket|count|sum)$", "");

    [Fact]
    public async Task The_status_endpoint_gives_a_service_admin_jobs_agents_and_queues()
    {
        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        var status = await admin.GetFromJsonAsync<JsonElement>("/api/v1/service/status");
        Assert.Equal(JsonValueKind.Array, status.GetProperty("jobs").ValueKind);
        Assert.Contains(status.GetProperty("agents").EnumerateArray(), a => a.GetProperty("profile").GetString() == "i7-4790k");
        Assert.Equal(JsonValueKind.Array, status.GetProperty("queues").ValueKind);
        Assert.True(status.GetProperty("background").GetProperty("failed").GetInt64() >= 0);
        Assert.True(status.GetProperty("analysis").GetProperty("runs").GetInt64() >= 0);
        // Publication outcomes are this process's tally, live (not held with the database snapshot).
        var before = Outcome(status, "skipped");
        PerfService.Hosting.Telemetry.PerfTelemetry.Published("skipped");
        Assert.Equal(before + 1, Outcome(await admin.GetFromJsonAsync<JsonElement>("/api/v1/service/status"), "skipped"));
        Assert.Equal(HttpStatusCode.Forbidden, (await (await app.ClientWithScopesAsync(Scopes.Read)).GetAsync("/api/v1/service/status")).StatusCode);
    }

    [Fact]
    public async Task A_malformed_allowed_network_stops_the_service_at_start()
    {
        var bad = await FailedStart.RunAsync(app.Database.ConnectionString,
            new Dictionary<string, string> { ["Telemetry:MetricsAllowedNetworks:0"] = "everyone" });
        FailedStart.AssertRefused(bad, "Telemetry", "MetricsAllowedNetworks");
    }

    private static long Outcome(JsonElement status, string outcome) =>
        status.GetProperty("publishing").GetProperty("outcomes").TryGetProperty(outcome, out var n) ? n.GetInt64() : 0;

    /// <summary>Prometheus text format: "name{labels} value" per sample (comments skipped).</summary>
    private static Dictionary<string, double> Parse(string text) => text.Split('\n')
        .Where(l => l.Length > 0 && l[0] != '#')
        .Select(l => (Key: l[..l.LastIndexOf(' ')], Value: l[(l.LastIndexOf(' ') + 1)..]))
        .Where(s => double.TryParse(s.Value, NumberStyles.Float, CultureInfo.InvariantCulture, out _))
        .GroupBy(s => s.Key).ToDictionary(g => g.Key, g => double.Parse(g.First().Value, CultureInfo.InvariantCulture));

    private static double Sum(Dictionary<string, double> samples, string name) =>
        samples.Where(s => s.Key == name || s.Key.StartsWith(name + "{", StringComparison.Ordinal)).Sum(s => s.Value);
}

public class TracingTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    [Fact]
    public async Task The_analysis_of_a_run_is_traced_with_a_link_to_the_ingest_that_stored_it()
    {
        var stopped = new System.Collections.Concurrent.ConcurrentBag<System.Diagnostics.Activity>();
        using var listener = new System.Diagnostics.ActivityListener
        {
            ShouldListenTo = s => s.Name == "PerfService",
            Sample = (ref System.Diagnostics.ActivityCreationOptions<System.Diagnostics.ActivityContext> _) => System.Diagnostics.ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = stopped.Add,
        };
        System.Diagnostics.ActivitySource.AddActivityListener(listener);
        await app.CreateProjectAsync("tracing");
        var runId = await HistorySeed.UploadGoAsync(await app.ClientWithScopesAsync(Scopes.Ingest), "tracing", 1);

        // Run ids restart at 1 in every test database, so the ingest is told apart by the span its analysis links to.
        System.Diagnostics.Activity? LinkedAnalysis() => stopped.Where(a => a.OperationName == "ingest run" && Equals(a.GetTagItem("perf.run_id"), runId))
            .SelectMany(ingest => stopped.Where(j => j.OperationName == "analyse runs"
                && j.Links.Any(l => l.Context.TraceId == ingest.TraceId && l.Context.SpanId == ingest.SpanId)))
            .FirstOrDefault();
        // The consumer's batch span links (not parents) to the ingest: a batch serves many ingests, later.
        var analysis = await Eventually.WaitAsync(() => Task.FromResult(LinkedAnalysis()), j => j is not null, TimeSpan.FromSeconds(60));
        Assert.Contains(runId, (long[])analysis!.GetTagItem("perf.run_ids")!);
        Assert.Equal(System.Diagnostics.ActivityKind.Consumer, analysis.Kind);
        Assert.NotEqual(analysis.TraceId, stopped.First(a => a.OperationName == "ingest run" && Equals(a.GetTagItem("perf.run_id"), runId)).TraceId);
    }
}

[CollectionDefinition(TelemetryTests.Name, DisableParallelization = true)]
public sealed class TelemetryCollection;

