using System.Collections.Concurrent;
using PerfService.FaultTests.Infrastructure;
using Xunit.Abstractions;

namespace PerfService.FaultTests;

/// <summary>The service killed with SIGKILL while clients post runs: what it acknowledged survives whole, and retries
/// with the same idempotency key land exactly once.</summary>
public sealed class ServiceCrashTests(ITestOutputHelper output) : IAsyncLifetime
{
    private const string Project = "crash";
    private const int Clients = 8;
    private const int RunsPerClient = 12;
    private const int ResultsPerRun = 300;

    private readonly Scratch _scratch = new("crash");
    private TestDatabase _db = null!;
    private ServiceProcess _service = null!;

    public async Task InitializeAsync()
    {
        _db = await TestDatabase.CreateAsync();
        _service = new ServiceProcess(_db.ConnectionString, _scratch.Root);
        await _service.StartAsync();
    }

    [Fact]
    public async Task Acknowledged_runs_survive_a_SIGKILL_and_retries_land_once()
    {
        using (var admin = _service.Client(await _db.CreateTokenAsync("admin", "admin")))
            await Uploads.CreateProjectAsync(admin, Project);
        var token = await _db.CreateTokenAsync("ingest", "ingest");

        // Every run a client will post: its key, its file and how many results it must end up with.
        var planned = Enumerable.Range(0, Clients * RunsPerClient).Select(i => new Planned(
            $"crash-{i}", Uploads.Commit($"crash-{i}"), Uploads.GenericJson(ResultsPerRun - i % 5, 20, i), ResultsPerRun - i % 5)).ToList();
        var acknowledged = new ConcurrentDictionary<string, long>();
        var unanswered = new ConcurrentQueue<Planned>();
        var ackCount = 0;

        // Phase 1: every client posts its runs back to back; the service is killed once a third are acknowledged.
        using var http = _service.Client(token, TimeSpan.FromSeconds(30));
        var killed = new TaskCompletionSource();
        var killer = Task.Run(async () =>
        {
            await Eventually.TrueAsync(() => Volatile.Read(ref ackCount) >= planned.Count / 3, TimeSpan.FromSeconds(90));
            await _service.KillHardAsync();
            killed.SetResult();
        });
        var clients = Enumerable.Range(0, Clients).Select(c => Task.Run(async () =>
        {
            foreach (var run in planned.Skip(c * RunsPerClient).Take(RunsPerClient))
            {
                var outcome = await PostAsync(http, run);
                if (outcome.Acknowledged)
                {
                    Assert.True(acknowledged.TryAdd(run.Key, outcome.Run!.RunId), $"{run.Key} acknowledged twice in phase 1");
                    Interlocked.Increment(ref ackCount);
                }
                else
                {
                    unanswered.Enqueue(run);
                }
            }
        })).ToList();
        await Task.WhenAll(clients);
        await killer;
        await killed.Task;
        var failedInPhase1 = unanswered.Count;
        output.WriteLine($"phase 1: {acknowledged.Count} acknowledged, {failedInPhase1} without a 2xx (the kill cut them off)");
        Assert.True(failedInPhase1 > 0, "the kill should have cut some posts off; otherwise this test proves nothing");

        // Phase 2: restart; every client retries what did not get a 2xx, with the same key, until it does.
        await _service.StartAsync();
        var duplicates = 0;
        using var retry = _service.Client(token, TimeSpan.FromSeconds(60));
        await Task.WhenAll(Enumerable.Range(0, Clients).Select(_ => Task.Run(async () =>
        {
            while (unanswered.TryDequeue(out var run))
            {
                var outcome = await Eventually.WaitAsync(() => PostAsync(retry, run), o => o.Acknowledged, TimeSpan.FromSeconds(30), 500);
                Assert.True(outcome.Acknowledged, $"retry of {run.Key} failed: {outcome}");
                if (outcome.Run!.Duplicate) Interlocked.Increment(ref duplicates);
                Assert.True(acknowledged.TryAdd(run.Key, outcome.Run.RunId), $"{run.Key} acknowledged in both phases");
            }
        })));
        output.WriteLine($"phase 2: {failedInPhase1} retried, {duplicates} of them had been stored before the kill (answered as duplicates)");

        // Every run is acknowledged now; the database holds each exactly once and whole, and nothing else.
        var stored = await _db.StoredRunsAsync(Project);
        var byKey = stored.GroupBy(r => r.Key!).ToDictionary(g => g.Key, g => g.ToList());
        Assert.Equal(planned.Count, acknowledged.Count);
        Assert.Equal(planned.Count, stored.Count);
        foreach (var run in planned)
        {
            Assert.True(byKey.TryGetValue(run.Key, out var rows), $"{run.Key} was acknowledged as run {acknowledged[run.Key]} but is not stored");
            var row = Assert.Single(rows);
            Assert.Equal(acknowledged[run.Key], row.Id);
            Assert.True(row.Results == run.ExpectedResults, $"{run.Key}: {row.Results} results stored, {run.ExpectedResults} posted");
            Assert.Equal(1, row.Artifacts);
        }
        Assert.DoesNotContain(stored, r => r.Results == 0);
    }

    private static Task<PostOutcome> PostAsync(HttpClient http, Planned run) =>
        Uploads.PostAsync(http, Uploads.Metadata(Project, run.Commit), run.Key, ("results.json", run.File));

    private sealed record Planned(string Key, string Commit, byte[] File, int ExpectedResults);

    public async Task DisposeAsync()
    {
        await _service.DisposeAsync();
        await _db.DisposeAsync();
        _scratch.Dispose();
    }
}
