using Hangfire;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using PerfService.Analysis;
using PerfService.IntegrationTests.Ingestion;

namespace PerfService.IntegrationTests.Foundation;

public sealed class BackgroundRoleApp : PerfServiceApp
{
    protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?>
    {
        ["Background:Roles"] = "background",
        ["Telemetry:MetricsAllowedNetworks:0"] = "127.0.0.1/32",
    };
}

public sealed class WebRoleApp : PerfServiceApp
{
    protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?> { ["Background:Roles"] = "web" };
}

/// <summary>
/// Web and background roles run apart by configuration (<c>Background:Roles</c>): a background-only process answers
/// health and metrics and nothing else; a web-only process serves the API and queues analysis but runs no consumer
/// and no Hangfire server; a setting that is not a role, or no workers, stops the process at start.
/// </summary>
public class RoleTests
{
    [Fact]
    public Task A_background_only_process_serves_health_and_metrics_and_refuses_the_api() => WithAppAsync(new BackgroundRoleApp(), async app =>
    {
        var client = app.CreateClient();
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/healthz")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/readyz")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/api/v1/projects")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/")).StatusCode);
        var admin = await app.CreateTokenAsync(Scopes.Admin);
        using var request = new HttpRequestMessage(HttpMethod.Get, "/api/v1/service/status") { Headers = { { "Authorization", $"Bearer {admin}" } } };
        Assert.Equal(HttpStatusCode.NotFound, (await client.SendAsync(request)).StatusCode);
        // It is the Hangfire server.
        var storage = app.Services.GetRequiredService<JobStorage>();
        Assert.Equal(1, await Eventually.WaitAsync(() => Task.FromResult(storage.GetMonitoringApi().Servers().Count), n => n == 1, TimeSpan.FromSeconds(30)));
    });

    [Fact]
    public Task A_web_only_process_stores_runs_and_queues_their_analysis_without_running_it() => WithAppAsync(new WebRoleApp(), async app =>
    {
        await app.CreateProjectAsync("web-role");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        var meta = new RunMetadata { Project = "web-role", Commit = "ab000001", Branch = "main", Profile = "m1-pro", Suite = "s" };
        Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", Generic.Times(("A.B", [1, 2, 3]))))).StatusCode);
        // The consumer service loops until shutdown where the background role is on and returns at once where it is
        // off: its ended task is the state that says no consumer can take the run, so no pause is needed.
        var consumers = app.Services.GetServices<IHostedService>().OfType<AnalysisConsumerService>().Single();
        Assert.True(await Eventually.TrueAsync(() => consumers.ExecuteTask is { IsCompleted: true }, TimeSpan.FromSeconds(30)),
            "the analysis consumer service is still running in a web-only process");
        // The run waits in the analysis queue, for a consumer of a background process; no Hangfire job stands for it.
        Assert.Equal(1, await app.WithDbAsync(db => Microsoft.EntityFrameworkCore.EntityFrameworkQueryableExtensions.CountAsync(db.AnalysisQueue)));
        Assert.Equal(0, await app.WithDbAsync(db => Microsoft.EntityFrameworkCore.EntityFrameworkQueryableExtensions.CountAsync(db.Runs, r => r.AnalysedAt != null)));
        var monitoring = app.Services.GetRequiredService<JobStorage>().GetMonitoringApi();
        Assert.Empty(monitoring.Servers());
        Assert.Equal(0, monitoring.EnqueuedCount("default"));
    });

    [Fact]
    public async Task A_role_that_does_not_exist_or_no_workers_stops_the_process_at_start()
    {
        await using var database = await TestDatabase.CreateAsync();
        foreach (var (key, value) in new[] { ("Background:Roles", "web,worker"), ("Background:Workers", "0") })
        {
            var bad = await FailedStart.RunAsync(database.ConnectionString, new Dictionary<string, string> { [key] = value });
            FailedStart.AssertRefused(bad, "Background", key.Split(':')[1]);
        }
    }

    private static async Task WithAppAsync<TApp>(TApp app, Func<TApp, Task> test) where TApp : PerfServiceApp
    {
        await app.InitializeAsync();
        try
        {
            await test(app);
        }
        finally
        {
            await ((IAsyncLifetime)app).DisposeAsync();
        }
    }
}
