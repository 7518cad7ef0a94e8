using PerfService.Data.Entities;
using PerfService.Migrations.Migrations;

namespace PerfService.IntegrationTests.Alerts;

/// <summary>
/// Alert details are a typed jsonb document. The migration that introduced it rewrites the three shapes stored before
/// (change point with bisection, pull-request regression, failed-target array), and its rollback restores them.
/// </summary>
public class AlertDetailsTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private const string OldChangePoint = """{"Index": 12, "Magnitude": 0.25, "LevelBefore": 100.0, "LevelAfter": 125.0, "DetectedAt": 17, "direction": "Regression", "bisect": {"From": "aa", "To": "bb", "FromAt": "2026-01-01T00:00:00+00:00", "ToAt": "2026-01-02T00:00:00+00:00", "RangeCommits": 8, "Cap": 4, "Done": true}}""";
    private const string OldRegression = """{"jobId": 42, "BaseMedian": 10.0, "HeadMedian": 12.5, "change": 0.25, "p": null}""";
    private const string OldTarget = """[{"Benchmark": "Fiber.Switch", "Baseline": null, "Actual": 62.1, "Limit": 50.0, "Unit": "ns", "Reason": "62.1 ns against < 50 ns"}]""";

    [Fact]
    public async Task The_migration_rewrites_old_shapes_into_typed_details_and_its_rollback_restores_them()
    {
        await app.CreateProjectAsync("details-migration");
        var projectId = await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == "details-migration").Select(p => p.Id).SingleAsync());
        var ids = new List<long>();
        foreach (var (kind, details) in new[] { ("ChangePoint", OldChangePoint), ("Regression", OldRegression), ("Target", OldTarget) })
            ids.Add(await app.Database.ScalarAsync<long>($"""
                INSERT INTO alerts (project_id, kind, state, group_key, summary, details, created_at, updated_at)
                VALUES ({projectId}, '{kind}', 'Active', 'old-{kind}', 'old', '{details}'::jsonb, now(), now()) RETURNING id
                """));

        await app.Database.ExecAsync(TypedAlertDetails.ToTyped);
        var typed = await app.WithDbAsync(db => db.Alerts.AsNoTracking().Where(a => ids.Contains(a.Id)).OrderBy(a => a.Id).ToListAsync());

        var cp = typed[0].Details;
        Assert.Equal((12, 0.25, 100.0, 125.0, 17, "Regression"), (cp.ChangePoint!.Index, cp.ChangePoint.Magnitude, cp.ChangePoint.LevelBefore,
            cp.ChangePoint.LevelAfter, cp.ChangePoint.DetectedAt, cp.ChangePoint.Direction));
        Assert.Equal(("aa", "bb", 8, 4, true), (cp.Bisect!.From, cp.Bisect.To, cp.Bisect.RangeCommits, cp.Bisect.Cap, cp.Bisect.Done));
        Assert.Null(cp.Regression);
        Assert.Empty(cp.TargetMisses);

        var regression = typed[1].Details.Regression!;
        Assert.Equal((42L, 10.0, 12.5, 0.25, (double?)null), (regression.JobId, regression.BaseMedian, regression.HeadMedian, regression.Change, regression.P));
        Assert.Null(typed[1].Details.ChangePoint);

        var miss = Assert.Single(typed[2].Details.TargetMisses);
        Assert.Equal(("Fiber.Switch", 62.1, 50.0, "ns", "62.1 ns against < 50 ns"), (miss.Benchmark, miss.Actual!.Value, miss.Limit, miss.Unit, miss.Reason));

        // Run twice (a re-applied script), rows in the new shape stay as they are.
        await app.Database.ExecAsync(TypedAlertDetails.ToTyped);
        Assert.Equal(12, await app.WithDbAsync(db => db.Alerts.Where(a => a.Id == ids[0]).Select(a => a.Details.ChangePoint!.Index).SingleAsync()));

        await app.Database.ExecAsync(TypedAlertDetails.ToUntyped);
        foreach (var (id, old) in ids.Zip(new[] { OldChangePoint, OldRegression, OldTarget }))
            Assert.True(await app.Database.ScalarAsync<bool>($"SELECT details = '{old}'::jsonb FROM alerts WHERE id = {id}"), $"alert {id} restored");
        await app.Database.ExecAsync(TypedAlertDetails.ToTyped);
    }

    [Fact]
    public async Task A_query_reads_inside_the_typed_document()
    {
        await app.CreateProjectAsync("details-query");
        var projectId = await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == "details-query").Select(p => p.Id).SingleAsync());
        await app.WithDbAsync(async db =>
        {
            db.Alerts.Add(new Alert
            {
                ProjectId = projectId, Kind = AlertKind.Regression, GroupKey = "pr:1:abc", Summary = "typed", CreatedAt = DateTimeOffset.UtcNow,
                UpdatedAt = DateTimeOffset.UtcNow, Details = new AlertDetails { Regression = new RegressionFacts { JobId = 7, Change = 0.3 } },
            });
            return await db.SaveChangesAsync();
        });
        Assert.Equal(0.3, await app.WithDbAsync(db => db.Alerts.Where(a => a.ProjectId == projectId && a.Details.Regression!.JobId == 7)
            .Select(a => a.Details.Regression!.Change).SingleAsync()));
        // Stored with the property names as keys, the document's one spelling.
        Assert.True(await app.Database.ScalarAsync<bool>($$"""
            SELECT details->'Regression' = '{"JobId": 7, "P": null, "Change": 0.3, "BaseMedian": null, "HeadMedian": null}'::jsonb
            FROM alerts WHERE project_id = {{projectId}}
            """));
    }
}
