using PerfService.Core.ChangePoints;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>
/// Runs flagged as a profile mismatch stay out of the change-point series, also when a late run makes the updater
/// replay the whole series (and read its tail): a different machine's level must not read as a step. A project that
/// opts in (include_profile_mismatch) gets them in its series.
/// </summary>
public class ProfileMismatchSeriesTests : OwnServiceTests
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

    [Theory]
    [InlineData(false, 40)]
    [InlineData(true, 60)]
    public async Task A_late_run_replays_the_series_without_mismatched_runs_unless_the_project_opts_in(bool optIn, int expectedPoints)
    {
        var slug = optIn ? "mismatch-in" : "mismatch-out";
        await app.CreateProjectAsync(slug);
        await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == slug).ExecuteUpdateAsync(s => s.SetProperty(p => p.IncludeProfileMismatch, optIn)));
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        // 60 commits: 0-39 on the right machine at 1000 ns, 40-59 on a mismatched one at 1300 ns; commit 30 arrives last.
        var order = Enumerable.Range(0, 60).Where(i => i != 30).Append(30).ToList();
        foreach (var i in order)
        {
            var mismatch = i >= 40;
            var meta = new RunMetadata
            {
                Project = slug, Commit = $"ab{(optIn ? 1 : 0)}0{i:0000}", CommittedAt = Start.AddHours(i), Branch = "main", Profile = "m1-pro",
                Suite = "s", ProfileMismatch = mismatch,
            };
            var files = Generic.Times(("Store.Read", Generic.Around(mismatch ? 1300 : 1000, 0.01, 10, seed: i)));
            Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", files))).StatusCode);
        }

        var projectId = await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == slug).Select(p => p.Id).SingleAsync());
        var benchmarkIds = await app.WithDbAsync(db => (from b in db.Benchmarks join s in db.Suites on b.SuiteId equals s.Id
                                                                        where s.ProjectId == projectId select b.Id).ToListAsync());
        // Every run analysed, the late one included (its replay is what reads the whole series).
        var row = await Eventually.WaitAsync(
            () => app.WithDbAsync(db => db.SeriesStates.SingleOrDefaultAsync(s => benchmarkIds.Contains(s.BenchmarkId))),
            s => s is not null && OnlineDetectorStateCodec.Decode(s.State).Count == expectedPoints);
        var stored = OnlineDetectorStateCodec.Decode(row!.State);
        Assert.Equal(expectedPoints, stored.Count);

        var alerts = await app.WithDbAsync(db => db.Alerts.Where(a => a.ProjectId == projectId && a.Kind == AlertKind.ChangePoint).ToListAsync());
        if (optIn)
            Assert.Equal(("ab100039", "ab100040"), (Assert.Single(alerts).FromCommit, alerts[0].ToCommit));
        else
            Assert.Empty(alerts);
    }
}
