using System.Diagnostics;
using System.Net;
using PerfService.FaultTests.Infrastructure;
using Xunit.Abstractions;

namespace PerfService.FaultTests;

/// <summary>
/// PostgreSQL stopped and started under a running service. The shared test cluster cannot be restarted (others use it),
/// so this test makes a second cluster of its own.
/// </summary>
public sealed class DatabaseRestartTests(ITestOutputHelper output) : IAsyncLifetime
{
    private const string Project = "pg-restart";
    private readonly Scratch _scratch = new("pg");
    private PrivateCluster _cluster = null!;
    private TestDatabase _db = null!;
    private ServiceProcess _service = null!;

    public async Task InitializeAsync()
    {
        _cluster = await PrivateCluster.CreateAsync(_scratch.Path("pg"));
        _db = await TestDatabase.CreateAsync(server: _cluster.ServerConnectionString);
        _service = new ServiceProcess(_db.ConnectionString, _scratch.Root);
        await _service.StartAsync();
    }

    [Fact]
    public async Task Readiness_follows_the_database_and_nothing_acknowledged_is_lost()
    {
        using (var admin = _service.Client(await _db.CreateTokenAsync("admin", "admin")))
            await Uploads.CreateProjectAsync(admin, Project);
        using var http = _service.Client(await _db.CreateTokenAsync("ingest", "ingest"), TimeSpan.FromSeconds(60));
        using var probe = _service.Anonymous();
        var acknowledged = new Dictionary<string, long>();

        for (var i = 0; i < 10; i++)
        {
            var outcome = await PostAsync(http, $"before-{i}");
            Assert.True(outcome.Acknowledged, $"before-{i}: {outcome}");
            acknowledged[$"before-{i}"] = outcome.Run!.RunId;
        }

        await _cluster.StopAsync();
        var notReady = await Eventually.WaitAsync(() => ServiceProcess.StatusAsync(probe, "readyz"),
            s => s == HttpStatusCode.ServiceUnavailable, TimeSpan.FromSeconds(20));
        Assert.Equal(HttpStatusCode.ServiceUnavailable, notReady);
        Assert.Equal(HttpStatusCode.OK, await ServiceProcess.StatusAsync(probe, "healthz"));

        // A post while the database is down is refused quickly with a server error, never acknowledged.
        var clock = Stopwatch.StartNew();
        var during = await PostAsync(http, "during");
        output.WriteLine($"post while PostgreSQL is down: {during} after {clock.ElapsedMilliseconds} ms");
        Assert.False(during.Acknowledged);
        Assert.True(during.Status is null or >= HttpStatusCode.InternalServerError, $"expected a 5xx, got {during}");
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30), "a post against a stopped database should fail fast");
        Assert.True(_service.Running, "the service must survive its database going away");
        Assert.Equal(HttpStatusCode.OK, await ServiceProcess.StatusAsync(probe, "healthz"));

        await _cluster.StartAsync();
        clock.Restart();
        var ready = await Eventually.WaitAsync(() => ServiceProcess.StatusAsync(probe, "readyz"),
            s => s == HttpStatusCode.OK, TimeSpan.FromSeconds(30));
        Assert.Equal(HttpStatusCode.OK, ready);
        output.WriteLine($"ready again {clock.ElapsedMilliseconds} ms after PostgreSQL started, without a service restart");

        // The post that failed is retried with its key, and new posts work.
        var firstTryFailures = new List<string>();
        foreach (var key in new[] { "during" }.Concat(Enumerable.Range(0, 10).Select(i => $"after-{i}")))
        {
            var attempts = 0;
            var outcome = await Eventually.WaitAsync(async () =>
            {
                var o = await PostAsync(http, key);
                if (!o.Acknowledged && ++attempts < 3) firstTryFailures.Add($"{key}: {o}");
                return o;
            }, o => o.Acknowledged || attempts >= 3, TimeSpan.FromSeconds(30), 500);
            Assert.True(outcome.Acknowledged, $"{key} after the restart: {outcome}");
            acknowledged[key] = outcome.Run!.RunId;
        }
        output.WriteLine(firstTryFailures.Count == 0
            ? "every post after the restart succeeded at the first try"
            : "posts that failed once after the restart: " + string.Join("; ", firstTryFailures));
        Assert.Empty(firstTryFailures);

        var stored = await _db.StoredRunsAsync(Project);
        Assert.Equal(acknowledged.Count, stored.Count);
        foreach (var (key, runId) in acknowledged)
        {
            var row = Assert.Single(stored, r => r.Key == key);
            Assert.Equal(runId, row.Id);
            Assert.Equal(120, row.Results);
        }
    }

    private static Task<PostOutcome> PostAsync(HttpClient http, string key) =>
        Uploads.PostAsync(http, Uploads.Metadata(Project, Uploads.Commit(key)), key, ("results.json", Uploads.GenericJson(120, 20, key.GetHashCode())));

    public async Task DisposeAsync()
    {
        await _service.DisposeAsync();
        await _db.DisposeAsync();
        await _cluster.DisposeAsync();
        _scratch.Dispose();
    }
}
