using System.Net.Http.Json;
using Microsoft.Extensions.DependencyInjection;
using PerfService.Analysis;
using PerfService.Data;
using PerfService.Hosting.Telemetry;
using PerfService.IntegrationTests.Ingestion;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>A web-only service (no consumer of its own), so each test runs the service's consumers itself; small batches
/// so that concurrent consumers interleave.</summary>
public sealed class AnalysisQueueApp : PerfServiceApp
{
    protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?>
    {
        ["Background:Roles"] = "web",
        ["Background:AnalysisBatchRuns"] = "4",
        ["Background:AnalysisAttempts"] = "2",
    };

    public AnalysisConsumer Consumer => Services.GetRequiredService<AnalysisConsumer>();
}

/// <summary>
/// The analysis queue on real PostgreSQL: consumers share it without coordination and analyse each run once; a batch
/// whose consumer rolled back or lost its connection is taken by the next; a run that cannot be analysed is parked with
/// its error, reported on the Service status, and the runs behind it are analysed.
/// </summary>
public class AnalysisQueueTests(AnalysisQueueApp app) : IClassFixture<AnalysisQueueApp>
{
    private static readonly DateTimeOffset Start = new(2026, 2, 1, 0, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task Concurrent_consumers_analyse_every_run_exactly_once()
    {
        var runs = await PostAsync("concurrent", 24);

        // Four consumers, each stepping until it finds nothing left it can take; every step says how many runs it took.
        var taken = await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => Task.Run(async () =>
        {
            var steps = new List<AnalysisStep>();
            for (AnalysisStep step; (step = await app.Consumer.StepAsync(CancellationToken.None)).TookAny;) steps.Add(step);
            return steps;
        })));

        Assert.Equal(runs.Count, taken.Sum(s => s.Sum(step => step.Analysed)));
        Assert.Equal(0, taken.Sum(s => s.Sum(step => step.Failed)));
        Assert.True(taken.Count(s => s.Count > 0) > 1, "the batches were shared between consumers");
        Assert.Empty(await QueueAsync(runs));
        Assert.Equal(runs.Count, await app.WithDbAsync(db => db.Runs.CountAsync(r => runs.Contains(r.Id) && r.AnalysedAt != null)));
        // Each series was fed every run's point once: none lost, none twice.
        var states = await app.WithDbAsync(db => db.SeriesStates.Where(s => db.Branches.Any(b => b.Id == s.BranchId && b.Project!.Slug == "concurrent")).Select(s => s.State).ToListAsync());
        Assert.Equal(2, states.Count);
        Assert.All(states, s => Assert.Equal(runs.Count, Core.ChangePoints.OnlineDetectorStateCodec.Decode(s).Count));
    }

    [Fact]
    public async Task A_batch_whose_consumer_rolled_back_or_lost_its_connection_is_taken_by_the_next()
    {
        var posted = 0;
        foreach (var dies in new Func<PerfDbContext, Task>[]
                 {
                     db => db.Database.CurrentTransaction!.RollbackAsync(),
                     async db => await app.Database.ExecAsync($"SELECT pg_terminate_backend({await BackendPidAsync(db)}, 30000)"),
                 })
        {
            var runs = await PostAsync("crashed", 6, first: posted);
            posted += runs.Count;
            await using var scope = app.Services.CreateAsyncScope();
            var db = scope.ServiceProvider.GetRequiredService<PerfDbContext>();
            await using var tx = await db.Database.BeginTransactionAsync();
            // The claim a consumer makes, held by a consumer that has not committed yet.
            var claimed = await scope.ServiceProvider.GetRequiredService<AnalysisBatch>().ClaimAsync(4, CancellationToken.None);
            Assert.Equal(4, claimed.Count);
            var pending = (await QueueAsync(runs)).Count;
            // Another consumer skips the held runs and takes only the others.
            Assert.Equal(new AnalysisStep(pending - 4, 0), await app.Consumer.StepAsync(CancellationToken.None));
            Assert.Equal(claimed.Select(c => c.RunId).Order(), await QueueAsync(runs));

            await dies(db);
            Assert.Equal(new AnalysisStep(4, 0), await app.Consumer.StepAsync(CancellationToken.None));
            Assert.Empty(await QueueAsync(runs));
        }
    }

    [Fact]
    public async Task A_run_that_cannot_be_analysed_is_parked_reported_and_does_not_hold_up_the_runs_behind_it()
    {
        var runs = await PostAsync("poison", 3);
        var poison = runs[1];
        // A real failure inside the analysis transaction, for this run only: its mark as analysed is refused.
        await app.Database.ExecAsync($"""
            CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'run % is poisoned', NEW.id; END $$;
            CREATE TRIGGER poison BEFORE UPDATE OF analysed_at ON runs FOR EACH ROW WHEN (NEW.id = {poison}) EXECUTE FUNCTION refuse_poison();
            """);

        await app.Consumer.DrainAsync(CancellationToken.None);
        var later = await PostAsync("poison", 2, first: 3);
        await app.Consumer.DrainAsync(CancellationToken.None);

        // The runs before and after it are analysed; it stays in the queue, parked after its two attempts alone.
        Assert.Equal(4, await app.WithDbAsync(db => db.Runs.CountAsync(r => runs.Concat(later).Contains(r.Id) && r.AnalysedAt != null)));
        var parked = await app.WithDbAsync(db => db.AnalysisQueue.SingleAsync(q => q.RunId == poison));
        Assert.NotNull(parked.ParkedAt);
        Assert.Equal(2, parked.Attempts);
        Assert.Contains($"run {poison} is poisoned", parked.Error);
        Assert.False((await app.Consumer.StepAsync(CancellationToken.None)).TookAny);

        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        var status = await admin.GetFromJsonAsync<ServiceStatus>("/api/v1/service/status");
        Assert.Equal(1, status!.Analysis.Parked);
        Assert.Equal(0, status.Analysis.Runs); // a parked run is no analysis lag
        var listed = Assert.Single(status.Analysis.ParkedRuns);
        Assert.Equal((poison, "poison", 2), (listed.RunId, listed.Project, listed.Attempts));
        Assert.Contains("poisoned", listed.Error);

        // Once its cause is gone, an admin of the project puts it back; a read token, or an admin bound to another
        // project, may not.
        await app.Database.ExecAsync("DROP TRIGGER poison ON runs");
        var retry = $"/api/v1/runs/{poison}/analysis/retry";
        var reader = await app.ClientWithScopesAsync(Scopes.Read);
        Assert.Equal(HttpStatusCode.Forbidden, (await reader.PostAsync(retry, null)).StatusCode);
        await app.CreateProjectAsync("poison-other");
        var otherAdmin = await AdminOfAsync("poison-other");
        Assert.Equal(HttpStatusCode.Forbidden, (await otherAdmin.PostAsync(retry, null)).StatusCode);
        Assert.NotNull((await app.WithDbAsync(db => db.AnalysisQueue.SingleAsync(q => q.RunId == poison))).ParkedAt);

        var ownAdmin = await AdminOfAsync("poison");
        Assert.Equal(HttpStatusCode.Accepted, (await ownAdmin.PostAsync(retry, null)).StatusCode);
        Assert.Equal(new AnalysisStep(1, 0), await app.Consumer.StepAsync(CancellationToken.None));
        Assert.Empty(await QueueAsync([poison]));
        Assert.NotNull(await app.WithDbAsync(db => db.Runs.Where(r => r.Id == poison).Select(r => r.AnalysedAt).SingleAsync()));
        // Analysed: nothing is parked any more, so a second retry is a conflict.
        Assert.Equal(HttpStatusCode.Conflict, (await admin.PostAsync(retry, null)).StatusCode);
    }

    private async Task<List<long>> PostAsync(string project, int count, int first = 0)
    {
        if (first == 0) await app.CreateProjectAsync(project);
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        for (var i = first; i < first + count; i++)
        {
            var meta = new RunMetadata { Project = project, Commit = $"ac{i:000000}", CommittedAt = Start.AddHours(i), Branch = "main", Profile = "m1-pro", Suite = "s" };
            var files = Generic.Times(("Queue.Read", Generic.Around(1000, 0.01, 10, seed: i)), ("Queue.Write", Generic.Around(2000, 0.01, 10, seed: i + 1)));
            Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", files))).StatusCode);
        }
        return await app.WithDbAsync(db => db.Runs.Where(r => r.Project!.Slug == project).OrderBy(r => r.Id).Skip(first).Select(r => r.Id).ToListAsync());
    }

    private async Task<HttpClient> AdminOfAsync(string slug)
    {
        var project = await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == slug).Select(p => p.Id).SingleAsync());
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Authorization = new("Bearer", await app.WithDbAsync(db => TokenCommands.CreateAsync(db, $"admin-of-{slug}", [Scopes.Admin], project)));
        return client;
    }

    private Task<List<long>> QueueAsync(List<long> runs) =>
        app.WithDbAsync(db => db.AnalysisQueue.Where(q => runs.Contains(q.RunId)).Select(q => q.RunId).Order().ToListAsync());

    private static async Task<int> BackendPidAsync(PerfDbContext db) =>
        (await db.Database.SqlQuery<int>($"SELECT pg_backend_pid() AS \"Value\"").ToListAsync()).Single();
}
