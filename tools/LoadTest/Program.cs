using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using PerfService.LoadTest;

if (LoadCommandLine.Parse(args, out var usage) is not { } options) return usage;

void Log(string line) => Console.Error.WriteLine($"loadtest: {line}");

var latencies = new Latencies();
using var http = new Http(options, latencies);
var ledger = new Ledger(options.MaxRequests);

// The project the runs go to (a fresh one per run of the load test).
try
{
    using var create = await http.Reader.PostAsJsonAsync("api/v1/projects", new { slug = options.Project, name = $"Load test {options.Project}", isPublic = true });
    if (create.StatusCode is not (HttpStatusCode.Created or HttpStatusCode.Conflict))
    {
        Log($"cannot create project {options.Project}: {(int)create.StatusCode} {await create.Content.ReadAsStringAsync()}");
        return 1;
    }
}
catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
{
    Log($"the service at {options.Server} does not answer: {e.Message}");
    return 1;
}

var generic = Payloads.Generic(options);
var fixtures = Payloads.Fixtures(options.Fixtures, Log);
Log($"project {options.Project} on {options.Server}; {options.Agents} agents × {options.Seconds} s (think {options.ThinkMilliseconds} ms ±50 %), " +
    $"{options.Readers} readers (think {options.ReaderThinkMilliseconds} ms); runs of {options.MinResults}-{options.MaxResults} results × {options.Samples} samples" +
    (fixtures.Count > 0 ? $", {options.FixtureRate:P0} real fixtures" : "") + $"; repeats {options.RepeatRate:P0}, races {options.RaceRate:P0}; commits {(options.Commits == CommitModel.Main ? "of main, in turn per profile" : "per agent")}; budget {options.MaxRequests} requests");

var runTag = DateTime.UtcNow.ToString("HHmmss", CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..6];
var main = options.Commits == CommitModel.Main ? new MainLine(runTag, options.Seed) : null;

// Warm-up, not measured: the first requests of a fresh process pay for JIT and connection set-up.
{
    var warmLatencies = new Latencies();
    using var warm = new Http(options, warmLatencies);
    var warmLedger = new Ledger(20);
    using var warmStop = new CancellationTokenSource(TimeSpan.FromSeconds(30));
    var agent = new SimulatedAgent(0, options with { ThinkMilliseconds = 0, RepeatRate = 0, RaceRate = 0 },
        warm, warmLedger, generic.Take(3).ToList(), [], $"warmup-{Guid.NewGuid():N}"[..15], main);
    using var warmSoft = new CancellationTokenSource();
    var warmAgent = agent.RunAsync(new Stopping(warmSoft.Token, warmStop.Token));
    await Task.Delay(1500);
    await warmSoft.CancelAsync();
    await warmAgent;
    foreach (var run in warmLedger.Runs) ledger.Adopt(run);
    var reader = new Reader(0, options, warm, warmLedger);
    using var readSoft = new CancellationTokenSource(TimeSpan.FromSeconds(2));
    await reader.RunAsync(new Stopping(readSoft.Token, warmStop.Token), 0);
}

// Ramp, not measured: every agent posts for --warmup-seconds before the clock starts, so that the measured load meets
// the service as it runs for days (code tiered up, every parser compiled, pools and thread pool grown) rather than
// its first seconds after a start. Those seconds are reported on a line of their own.
if (options.WarmupSeconds > 0)
{
    var rampLatencies = new Latencies();
    using var ramp = new Http(options, rampLatencies);
    var rampLedger = new Ledger(options.MaxRequests);
    using var rampSoft = new CancellationTokenSource(TimeSpan.FromSeconds(options.WarmupSeconds));
    using var rampHard = new CancellationTokenSource(TimeSpan.FromSeconds(options.WarmupSeconds + options.TimeoutSeconds + 15));
    var rampClock = Stopwatch.StartNew();
    await Task.WhenAll(Enumerable.Range(0, options.Agents).Select(i => Task.Run(() =>
        new SimulatedAgent(i, options, ramp, rampLedger, generic, fixtures, "ramp-" + runTag, main).RunAsync(new Stopping(rampSoft.Token, rampHard.Token)))));
    foreach (var run in rampLedger.Runs) ledger.Adopt(run);
    var rows = rampLatencies.Summaries(rampClock.Elapsed, Report.Group);
    var posts = rows.FirstOrDefault(r => r.Kind == "ingest (all)") ?? rows.FirstOrDefault(r => r.Kind == "ingest");
    if (posts is not null)
        Log($"warm-up, not measured: {options.Agents} agents for {options.WarmupSeconds} s, {posts.Requests} posts ({posts.ErrorCount} errors), " +
            $"p50 {posts.P50Ms:0} ms, p99 {posts.P99Ms:0} ms, max {posts.MaxMs:0} ms");
}

_ = LoadAverage.Start;
var cpuAtStart = ProcessCpu.Read(options.Processes);
var postmaster = await RunWindowProbe.LocalPostmasterAsync(options.Database, CancellationToken.None);
var machineAtStart = MachineCpu.Seconds();
var postgresAtStart = postmaster is { } pm0 ? ProcessCpu.TreeSeconds(pm0) : null;
var clientAtStart = ProcessCpu.Seconds(Environment.ProcessId);
var loadStartedAt = await RunWindowProbe.NowAsync(options.Database, CancellationToken.None);
var backlogAtStart = (await AnalysisLagProbe.NowAsync(options.Database, CancellationToken.None)).Count;
using var soft = new CancellationTokenSource(TimeSpan.FromSeconds(options.Seconds));
using var hard = new CancellationTokenSource(TimeSpan.FromSeconds(options.Seconds + options.TimeoutSeconds + 15));
var stop = new Stopping(soft.Token, hard.Token);
var clock = Stopwatch.StartNew();
var workers = Enumerable.Range(0, options.Agents)
    .Select(i => Task.Run(() => new SimulatedAgent(i, options, http, ledger, generic, fixtures, runTag, main).RunAsync(stop)))
    .Concat(Enumerable.Range(0, options.Readers).Select(i => Task.Run(() => new Reader(i, options, http, ledger).RunAsync(stop, options.ReaderThinkMilliseconds))))
    .ToList();
using var progress = new PeriodicTimer(TimeSpan.FromSeconds(5));
var all = Task.WhenAll(workers);
while (!all.IsCompleted)
{
    var tick = progress.WaitForNextTickAsync().AsTask();
    await Task.WhenAny(all, tick);
    if (all.IsCompleted) break;
    var now = latencies.Summaries(clock.Elapsed, Report.Group);
    var ingest = now.FirstOrDefault(s => s.Kind == "ingest");
    var reads = now.Where(s => s.Kind.StartsWith("read", StringComparison.Ordinal) && !s.Kind.EndsWith("(all)", StringComparison.Ordinal)).ToList();
    Log($"{clock.Elapsed.TotalSeconds,5:0} s: ingest {ingest?.Requests ?? 0} ({ingest?.ErrorCount ?? 0} errors, p99 {ingest?.P99Ms ?? 0:0} ms), " +
        $"reads {reads.Sum(r => r.Requests)} ({reads.Sum(r => r.ErrorCount)} errors){(soft.IsCancellationRequested ? " — draining" : "")}");
}
try
{
    await all;
}
catch (OperationCanceledException)
{
    Log("some requests were still unanswered at the hard stop; they count as unacknowledged");
}
var elapsed = clock.Elapsed;
var cpuAtStop = ProcessCpu.Read(options.Processes);
var machineAtStop = MachineCpu.Seconds();
var postgresAtStop = postmaster is { } pm1 ? ProcessCpu.TreeSeconds(pm1) : null;
var clientAtStop = ProcessCpu.Seconds(Environment.ProcessId);
var loadStoppedAt = await RunWindowProbe.NowAsync(options.Database, CancellationToken.None);
var backlogAtStop = await AnalysisLagProbe.NowAsync(options.Database, CancellationToken.None);
var stoppedAt = Stopwatch.StartNew();

// The drain before the verification: its reads would otherwise be costed to the analysis that runs alone after the load.
Log($"waiting up to {options.AnalysisWaitSeconds} s for the background analysis to catch up ({backlogAtStop.Count} waiting when the load stopped)…");
var lag = await AnalysisLagProbe.MeasureAsync(options.Database, loadStartedAt, backlogAtStart, backlogAtStop, stoppedAt.Elapsed, options.AnalysisWaitSeconds, CancellationToken.None);
var cpuAtDrained = ProcessCpu.Read(options.Processes);
var window = await RunWindowProbe.ReadAsync(options.Database, loadStartedAt, loadStoppedAt, CancellationToken.None);
var capacity = Capacity.Compute(window, lag.DrainedSeconds ?? (lag.WaitingAtStop > 0 ? lag.WaitedSeconds : null), cpuAtStart, cpuAtStop, cpuAtDrained);
double? PerStored(double? from, double? to) => from is { } a && to is { } b && window.Stored > 0 ? (b - a) / window.Stored : null;
var machine = new MachineUse(PerStored(machineAtStart, machineAtStop), PerStored(clientAtStart, clientAtStop), PerStored(postgresAtStart, postgresAtStop),
    options.Processes.ToDictionary(p => p.Role, p => ProcessMemory.PeakMegabytes(p.Pid)));

Log("verifying through the database and the API…");
using var verifyHttp = new Http(options, new Latencies());
using var verifyTimeout = new CancellationTokenSource(TimeSpan.FromMinutes(5));
var verification = await Verifier.VerifyAsync(options, ledger, verifyHttp, verifyTimeout.Token);

var summaries = latencies.Summaries(elapsed, Report.Group);
var exit = Report.Print(Console.Out, options, summaries, verification, elapsed, ledger, lag, capacity, machine);
if (options.JsonReport is { } file)
{
    await File.WriteAllTextAsync(file, JsonSerializer.Serialize(new
    {
        options = new { options.Agents, options.Seconds, options.WarmupSeconds, commits = options.Commits.ToString(), options.Readers, options.ThinkMilliseconds, options.ReaderThinkMilliseconds, options.MinResults, options.MaxResults, options.Samples },
        elapsedSeconds = elapsed.TotalSeconds,
        summaries,
        verification,
        analysisLag = lag,
        capacity = new
        {
            capacity.StoredPerSecond, capacity.AnalysedPerSecond, capacity.AnalysedPerStored, capacity.DrainPerSecond,
            cpuPerIngestedSeconds = capacity.CpuPerIngested, cpuPerAnalysedSeconds = capacity.CpuPerAnalysed, cpuBasis = capacity.CpuBasis, window,
        },
        machine = new
        {
            cpuPerStoredSeconds = machine.CpuPerStored, postgresCpuPerStoredSeconds = machine.PostgresCpuPerStored,
            loadToolCpuPerStoredSeconds = machine.ClientCpuPerStored, peakResidentMegabytes = machine.PeakMegabytes,
        },
        problems = Problems.All.Select(p => $"{p.Kind}: {p.What}"),
        errorSamples = Samples.All,
    }, new JsonSerializerOptions(JsonSerializerDefaults.Web) { WriteIndented = true }));
}
return exit;
