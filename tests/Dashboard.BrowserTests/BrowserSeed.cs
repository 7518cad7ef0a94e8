using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text;
using Microsoft.EntityFrameworkCore;
using PerfService.Auth;
using PerfService.Core.Contracts;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Dashboard;
using Outcome = PerfService.Core.Comparison.Outcome;
using PerfService.Core.Suites;
using PerfService.Core.Targets;

namespace Dashboard.BrowserTests;

public sealed record SeedData(
    long HaxReads, long XssBenchmark, string XssName, long ChangePointAlert, long TriageAlert, long PrHeadRun, int Verdicts,
    string ReadToken, string ReadTokenName, long PrSecondHeadRun);

/// <summary>
/// A project with some history to look at: 14 commits on two profiles with a step at commit 9 (and its change-point
/// alert), a pull request with verdicts and targets on both profiles (some targets the runs do not measure), a benchmark
/// whose name is markup, two agents and some jobs.
/// </summary>
public static class BrowserSeed
{
    public const string Project = "demo";
    public const string XssName = "<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">";

    public static async Task<SeedData> SeedAsync(DashboardSite site)
    {
        using var admin = await Client(site, Scopes.Admin);
        (await admin.PostAsJsonAsync("/api/v1/projects", new { slug = Project, name = "Demo service", isPublic = true })).EnsureSuccessStatusCode();
        using var ingest = await Client(site, Scopes.Ingest);
        var (mainI7, mainRyzen) = (0L, 0L);
        for (var commit = 1; commit <= 14; commit++)
        {
            var step = commit >= 9 ? 1.35 : 1.0;
            mainI7 = await HistorySeed.UploadGoAsync(ingest, Project, commit, factor: step * (1 + 0.03 * Math.Sin(commit * 1.7)));
            mainRyzen = await HistorySeed.UploadGoAsync(ingest, Project, commit, "ryzen-9950x", factor: 0.55 * step * (1 + 0.02 * Math.Cos(commit * 2.3)));
        }
        await HistorySeed.UploadBdnAsync(ingest, Project, 14);
        foreach (var commit in new[] { 13, 14 })
            await HistorySeed.UploadAsync(ingest, Meta(commit, "custom", "json"), "custom.json", Encoding.UTF8.GetBytes(XssJson(commit)));

        var (hax, xss, timeId, projectId) = await site.WithDbAsync(async db =>
        {
            var project = db.Projects.Single(p => p.Slug == Project);
            var benchmarks = db.Benchmarks.Where(b => db.Suites.Any(s => s.Id == b.SuiteId && s.ProjectId == project.Id));
            return (benchmarks.Single(b => b.Name.EndsWith("HaxMapReadsOnly")).Id, benchmarks.Single(b => b.Name == XssName).Id,
                db.Measures.Single(m => m.Name == "time" && m.Unit == "ns").Id, project.Id);
        });
        var (changePoint, triage, job) = await site.WithDbAsync(async db =>
        {
            var cp = NewAlert(projectId, AlertKind.ChangePoint, hax, timeId, 2, "time +35% from here (change point)");
            cp.Details.ChangePoint = new ChangePointFacts { Index = 9, DetectedAt = 11, Magnitude = 0.35, LevelBefore = 100, LevelAfter = 135, Direction = "Regression" };
            var regression = NewAlert(projectId, AlertKind.Regression, hax, timeId, 1, "time +34% on ryzen-9950x");
            var prJob = new Job
            {
                ProjectId = projectId,
                Kind = JobKind.PullRequest,
                Commit = HistorySeed.Sha(20),
                BaseCommit = HistorySeed.Sha(14),
                PullRequest = 7,
                ProfileId = 2,
                State = JobState.Succeeded,
                CreatedAt = DateTimeOffset.UtcNow.AddMinutes(-30),
                Branch = "feature-x"
            };
            db.AddRange(cp, regression, prJob);
            await db.SaveChangesAsync();
            return (cp.Id, regression.Id, prJob.Id);
        });

        // Only an agent holding a running job may post runs for it: the seed posts the head run plain and links it to
        // the (already finished) pull-request job itself.
        var head = await HistorySeed.UploadAsync(ingest, Meta(20, "maps", "gobench") with { BaseCommit = HistorySeed.Sha(14), Branch = "feature-x" },
            HistorySeed.GoFile, HistorySeed.ScaledGo(1.2));
        await site.WithDbAsync(db => db.Runs.Where(r => r.Id == head)
            .ExecuteUpdateAsync(u => u.SetProperty(r => r.PullRequest, 7).SetProperty(r => r.JobId, job)));
        var verdicts = await AddVerdictsAndJobsAsync(site, projectId, job, head, timeId);
        var secondHead = await AddSecondProfileAsync(site, ingest, projectId, timeId);
        await AddSubmittedAsync(site, projectId, timeId);
        await site.WithDbAsync(async db =>
        {
            // Main's latest maps runs: one target passing on one profile and failing on the other, one no run measured.
            db.TargetResults.AddRange(
                new TargetResult { RunId = mainI7, Name = "lookups under 1 µs", Outcome = TargetStatus.Pass, Actual = 0.8, Limit = 1 },
                new TargetResult { RunId = mainRyzen, Name = "lookups under 1 µs", Outcome = TargetStatus.Fail, Actual = 1.3, Limit = 1 });
            db.TargetResults.AddRange(Unmeasured(mainI7, [StartupTarget]));
            await db.SaveChangesAsync();
            return 0;
        });
        var token = await site.CreateTokenAsync(Scopes.Read);
        return new SeedData(hax, xss, XssName, changePoint, triage, head, verdicts, token, "test-read", secondHead);
    }

    /// <summary>Targets that name benchmarks the maps suite does not have, judged by the service's own evaluator so that
    /// the pages show the reasons a user sees.</summary>
    public static readonly TargetDeclaration[] UnmeasuredTargets =
    [
        new() { Name = "skip list lookups under 5 µs", Benchmark = "BenchmarkSkipList*", Op = "<", Value = 5, Unit = "µs" },
        new() { Name = "B-tree inserts under 2 µs", Benchmark = "*BTreeInsert*", Op = "<", Value = 2, Unit = "µs" },
        new() { Name = "trie scans under 1 ms", Benchmark = "*TrieScan*", Op = "<", Value = 1, Unit = "ms" },
    ];

    /// <summary>A target of main's maps suite whose benchmark the suite does not have.</summary>
    public static readonly TargetDeclaration StartupTarget = new() { Name = "startup under 100 ms", Benchmark = "BenchmarkStartup*", Op = "<", Value = 100, Unit = "ms" };

    private static IEnumerable<TargetResult> Unmeasured(long run, TargetDeclaration[]? targets = null) =>
        TargetEvaluator.Evaluate(targets ?? UnmeasuredTargets, HistorySeed.ParsedGo(1).Results)
            .Select(o => new TargetResult { RunId = run, Name = o.Target.Name, Outcome = o.Status, Limit = o.Limit, Detail = o.Reason });

    /// <summary>Pull request 7's head as a CI job posted it itself (a submitted job, judged): one large improvement, which
    /// the page shows in a section of its own and never in the agents' verdict.</summary>
    private static Task<int> AddSubmittedAsync(DashboardSite site, long projectId, long timeId) => site.WithDbAsync(async db =>
    {
        var profile = db.Profiles.Single(p => p.Name == "i7-4790k").Id;
        var job = new Job
        {
            ProjectId = projectId, Kind = JobKind.Submitted, Commit = HistorySeed.Sha(20), BaseCommit = HistorySeed.Sha(14), PullRequest = 7,
            ProfileId = profile, State = JobState.Succeeded, CreatedAt = DateTimeOffset.UtcNow.AddMinutes(-5), JudgedAt = DateTimeOffset.UtcNow,
            Branch = "feature-x",
        };
        db.Add(job);
        await db.SaveChangesAsync();
        var benchmark = db.Benchmarks.Where(b => db.Suites.Any(s => s.Id == b.SuiteId && s.ProjectId == projectId && s.Name == "maps")).OrderBy(b => b.Key).First();
        db.Verdicts.Add(new Verdict
        {
            JobId = job.Id, ProjectId = projectId, PullRequest = 7, BenchmarkId = benchmark.Id, MeasureId = timeId, ProfileId = profile,
            Outcome = Outcome.Improvement, BaseMedian = 1000, HeadMedian = 500, Change = -0.5, ChangeCiLower = -0.52, ChangeCiUpper = -0.48,
            PValue = 0.001, AdjustedPValue = 0.002, Threshold = 0.05, NoChangeMargin = 0.05, BaseSamples = 20, HeadSamples = 20, CreatedAt = DateTimeOffset.UtcNow,
        });
        return await db.SaveChangesAsync();
    });

    /// <summary>Pull request 7 on ryzen-9950x: no regression there, one improvement, and only unmeasured targets.</summary>
    private static async Task<long> AddSecondProfileAsync(DashboardSite site, HttpClient ingest, long projectId, long timeId)
    {
        const string profile = "ryzen-9950x";
        var (profileId, job) = await site.WithDbAsync(async db =>
        {
            var id = db.Profiles.Single(p => p.Name == profile).Id;
            var prJob = new Job
            {
                ProjectId = projectId, Kind = JobKind.PullRequest, Commit = HistorySeed.Sha(20), BaseCommit = HistorySeed.Sha(14), PullRequest = 7,
                ProfileId = id, State = JobState.Succeeded, CreatedAt = DateTimeOffset.UtcNow.AddMinutes(-29), Branch = "feature-x",
            };
            db.Add(prJob);
            await db.SaveChangesAsync();
            return (id, prJob.Id);
        });
        var head = await HistorySeed.UploadAsync(ingest,
            Meta(20, "maps", "gobench") with { Profile = profile, BaseCommit = HistorySeed.Sha(14), Branch = "feature-x" },
            HistorySeed.GoFile, HistorySeed.ScaledGo(0.55 * 1.35));
        return await site.WithDbAsync(async db =>
        {
            await db.Runs.Where(r => r.Id == head).ExecuteUpdateAsync(u => u.SetProperty(r => r.PullRequest, 7).SetProperty(r => r.JobId, job));
            var benchmarks = db.Benchmarks.Where(b => db.Suites.Any(s => s.Id == b.SuiteId && s.ProjectId == projectId && s.Name == "maps")).OrderBy(b => b.Key).ToList();
            var outcomes = new[] { (Outcome.NoChange, 0.01), (Outcome.Improvement, -0.08), (Outcome.NoChange, -0.003) };
            for (var i = 0; i < outcomes.Length; i++)
            {
                var (outcome, change) = outcomes[i];
                db.Verdicts.Add(new Verdict
                {
                    JobId = job, ProjectId = projectId, PullRequest = 7, BenchmarkId = benchmarks[i].Id, MeasureId = timeId, ProfileId = profileId,
                    Outcome = outcome, BaseMedian = 500 + 50 * i, HeadMedian = (500 + 50 * i) * (1 + change), Change = change,
                    ChangeCiLower = change - 0.015, ChangeCiUpper = change + 0.015, PValue = 0.2, AdjustedPValue = 1, Threshold = 0.05,
                    BaseSamples = 20, HeadSamples = 20, CreatedAt = DateTimeOffset.UtcNow,
                });
            }
            db.TargetResults.AddRange(Unmeasured(head));
            await db.SaveChangesAsync();
            return head;
        });
    }

    private static async Task<int> AddVerdictsAndJobsAsync(DashboardSite site, long projectId, long jobId, long headRun, long timeId) =>
        await site.WithDbAsync(async db =>
        {
            var goBenchmarks = db.Benchmarks.Where(b => db.Suites.Any(s => s.Id == b.SuiteId && s.ProjectId == projectId && s.Name == "maps")).OrderBy(b => b.Key).ToList();
            var outcomes = new[] { (Outcome.Regression, 0.21), (Outcome.NoChange, 0.004), (Outcome.Improvement, -0.12),
                (Outcome.NoChange, -0.01), (Outcome.Inconclusive, 0.06), (Outcome.Regression, 0.09) };
            for (var i = 0; i < goBenchmarks.Count && i < outcomes.Length; i++)
            {
                var (outcome, change) = outcomes[i];
                db.Verdicts.Add(new Verdict
                {
                    JobId = jobId,
                    ProjectId = projectId,
                    PullRequest = 7,
                    BenchmarkId = goBenchmarks[i].Id,
                    MeasureId = timeId,
                    ProfileId = 2,
                    Outcome = outcome,
                    BaseMedian = 1000 + 100 * i,
                    HeadMedian = (1000 + 100 * i) * (1 + change),
                    Change = change,
                    ChangeCiLower = change - 0.02,
                    ChangeCiUpper = change + 0.02,
                    PValue = outcome == Outcome.NoChange ? 0.4 : 0.001,
                    AdjustedPValue = outcome == Outcome.NoChange ? 0.6 : 0.004,
                    // One regression cleared a margin widened by its series' noise: the pages show both figures.
                    NoChangeMargin = 0.05,
                    Threshold = change == 0.09 ? 0.06 : 0.05,
                    BaseSamples = 20,
                    HeadSamples = 20,
                    CreatedAt = DateTimeOffset.UtcNow,
                });
            }
            db.TargetResults.AddRange(
                new TargetResult { RunId = headRun, Name = "reads under 10 µs", Outcome = TargetStatus.Pass, Actual = 8.9, Limit = 10 },
                new TargetResult { RunId = headRun, Name = "writes under 20 µs", Outcome = TargetStatus.Fail, Actual = 23.4, Limit = 20, Detail = "p50 23.4 µs > 20 µs" });
            db.TargetResults.AddRange(Unmeasured(headRun));
            var online = new Agent { Name = "bench-01", ProfileId = 2, RegisteredAt = DateTimeOffset.UtcNow.AddDays(-3), LastSeenAt = DateTimeOffset.UtcNow };
            var offline = new Agent { Name = "bench-02", ProfileId = 1, RegisteredAt = DateTimeOffset.UtcNow.AddDays(-9), LastSeenAt = DateTimeOffset.UtcNow.AddHours(-2) };
            db.AddRange(online, offline);
            await db.SaveChangesAsync();
            var now = DateTimeOffset.UtcNow;
            db.Jobs.AddRange(
                new Job { ProjectId = projectId, Kind = JobKind.Baseline, Commit = HistorySeed.Sha(15), ProfileId = 2, State = JobState.Running, AgentId = online.Id, Progress = "suite maps, round 2/5", CreatedAt = now.AddMinutes(-6), StartedAt = now.AddMinutes(-5) },
                new Job { ProjectId = projectId, Kind = JobKind.PullRequest, Commit = HistorySeed.Sha(21), PullRequest = 8, ProfileId = 2, Priority = 10, State = JobState.Queued, CreatedAt = now.AddMinutes(-2) },
                new Job { ProjectId = projectId, Kind = JobKind.Baseline, Commit = HistorySeed.Sha(16), ProfileId = 1, State = JobState.Queued, CreatedAt = now.AddMinutes(-1) },
                new Job
                {
                    ProjectId = projectId,
                    Kind = JobKind.Baseline,
                    Commit = HistorySeed.Sha(12),
                    ProfileId = 1,
                    State = JobState.Failed,
                    Attempts = 3,
                    Reason = "go test exited with 2",
                    Log = "building…\ngo test -bench . -count 20\npanic: boom <b>not markup</b>\nexit status 2",
                    CreatedAt = now.AddHours(-3),
                    FinishedAt = now.AddHours(-2)
                });
            await db.SaveChangesAsync();
            return Math.Min(goBenchmarks.Count, outcomes.Length);
        });

    private static Alert NewAlert(long projectId, AlertKind kind, long benchmark, long measure, long profile, string summary) => new()
    {
        ProjectId = projectId,
        Kind = kind,
        State = AlertState.Active,
        BenchmarkId = benchmark,
        MeasureId = measure,
        ProfileId = profile,
        GroupKey = $"{kind}-9",
        FromCommit = HistorySeed.Sha(8),
        ToCommit = HistorySeed.Sha(9),
        Summary = summary,
        CreatedAt = DateTimeOffset.UtcNow.AddHours(-1),
        UpdatedAt = DateTimeOffset.UtcNow.AddHours(-1),
    };

    private static RunMetadata Meta(int commit, string suite, string format) => new()
    {
        Project = Project,
        Commit = HistorySeed.Sha(commit),
        CommittedAt = HistorySeed.Epoch.AddDays(commit),
        Branch = "main",
        Profile = "i7-4790k",
        Suite = suite,
        Format = format,
    };

    private static string XssJson(int commit) => System.Text.Json.JsonSerializer.Serialize(new
    {
        results = new[] { new { benchmark = XssName, parameters = new Dictionary<string, string> { ["size"] = "<b>big</b>" }, unit = "ns", samples = new[] { 10.0 + commit, 11.0 + commit, 12.5 + commit } } },
    });

    private static async Task<HttpClient> Client(DashboardSite site, params string[] scopes)
    {
        var client = site.Http();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", await site.CreateTokenAsync(scopes));
        return client;
    }
}
