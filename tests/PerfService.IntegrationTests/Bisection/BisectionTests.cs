using System.Text.Json;
using PerfService.AgentJobs;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.GitHub;
using PerfService.IntegrationTests.Ingestion;

namespace PerfService.IntegrationTests.Bisection;

/// <summary>
/// A push of eight commits of which only the head is benchmarked, onto a flat history, with a slowdown planted by the
/// third: the change point's range spans the eight, and bisection narrows it to the culprit.
/// </summary>
public class BisectionTests(GitHubFixture fixture) : IClassFixture<GitHubFixture>
{
    private const string Profile = "i7-4790k";
    private const int Culprit = 3;
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

    private PerfServiceApp App => fixture.App;

    private static string History(int i) => GitHubFixture.Sha($"history-{i}");

    private Task<long> ProjectIdAsync(string slug) => App.WithDbAsync(db => db.Projects.Where(p => p.Slug == slug).Select(p => p.Id).SingleAsync());

    private static string Pushed(string slug, int k) => GitHubFixture.Sha($"{slug}-pushed-{k}");

    [Fact]
    public async Task Bisection_narrows_the_alert_in_place_to_the_culprit_one_job_at_a_time()
    {
        var (slug, agent) = await SetUpAsync("bisect-on", bisect: true);
        var projectId = await ProjectIdAsync(slug);
        var alert = await App.WithDbAsync(db => db.Alerts.SingleAsync(a => a.ProjectId == projectId && a.Kind == AlertKind.ChangePoint));
        Assert.Equal((History(19), Pushed(slug, 8)), (alert.FromCommit, alert.ToCommit));

        // Seven untested commits between: p4 splits them 4/4; p4 is slow, so p2 next; p2 is fast, so p3, the culprit.
        foreach (var (commit, from, to) in new[] { (4, 0, 4), (2, 2, 4), (3, 2, 3) })
        {
            var job = (await agent.ClaimAsync())!;
            Assert.Equal(Pushed(slug, commit), job.Commit);
            Assert.Equal("Bisect", await App.WithDbAsync(db => db.Jobs.Where(j => j.Id == job.JobId).Select(j => j.Kind.ToString()).SingleAsync()));
            await PostAsync(agent, slug, job.Commit, commit >= Culprit ? 1300 : 1000, job.JobId);
            Assert.Equal(HttpStatusCode.NoContent, (await agent.CompleteAsync(job.JobId)).StatusCode);

            var expected = (from == 0 ? History(19) : Pushed(slug, from), Pushed(slug, to));
            alert = await Eventually.WaitAsync(() => App.WithDbAsync(db => db.Alerts.SingleAsync(a => a.Id == alert.Id)),
                a => (a.FromCommit, a.ToCommit) == expected);
            Assert.Equal(expected, (alert.FromCommit, alert.ToCommit));
        }

        await WaitForAnalysisAsync(projectId);
        await ProfilingIsLastAsync(agent, alert.Id);
        var jobs = await App.WithDbAsync(db => db.Jobs.Where(j => j.ProjectId == projectId && j.Kind == JobKind.Bisect).OrderBy(j => j.Id).Select(j => j.Commit).ToListAsync());
        Assert.Equal([Pushed(slug, 4), Pushed(slug, 2), Pushed(slug, 3)], jobs);

        var alerts = await App.WithDbAsync(db => db.Alerts.Where(a => a.ProjectId == projectId && a.Kind == AlertKind.ChangePoint).ToListAsync());
        var narrowed = Assert.Single(alerts);
        Assert.Equal(AlertState.Active, narrowed.State);
        var bisect = narrowed.Details.Bisect!;
        Assert.True(bisect.Done);
        Assert.Equal((8, 4), (bisect.RangeCommits, bisect.Cap));
        Assert.Equal("Regression", narrowed.Details.ChangePoint!.Direction);
        Assert.Contains($"between {Pushed(slug, 2)[..10]} and {Pushed(slug, 3)[..10]}", narrowed.Summary);
        var reasons = await App.WithDbAsync(db => db.AlertEvents.Where(e => e.AlertId == narrowed.Id).OrderBy(e => e.Id).Select(e => e.Reason).ToListAsync());
        Assert.Equal(3, reasons.Count(r => r!.StartsWith("bisecting: queued a run of", StringComparison.Ordinal)));
        Assert.Equal(3, reasons.Count(r => r!.StartsWith("range narrowed by bisection", StringComparison.Ordinal)));
        Assert.Contains($"to {Pushed(slug, 2)[..10]}..{Pushed(slug, 3)[..10]}", reasons[^1]);
    }

    [Fact]
    public async Task Without_bisection_the_range_stays_wide_and_nothing_is_queued()
    {
        var (slug, agent) = await SetUpAsync("bisect-off", bisect: false);
        var projectId = await ProjectIdAsync(slug);
        await WaitForAnalysisAsync(projectId);
        var alert = await App.WithDbAsync(db => db.Alerts.SingleAsync(a => a.ProjectId == projectId && a.Kind == AlertKind.ChangePoint));
        Assert.Equal((History(19), Pushed(slug, 8)), (alert.FromCommit, alert.ToCommit));
        Assert.False(await App.WithDbAsync(db => db.Jobs.AnyAsync(j => j.ProjectId == projectId && j.Kind == JobKind.Bisect)));
        await ProfilingIsLastAsync(agent, alert.Id);
        // The pushed commits are known all the same, with the push's times.
        var known = await App.WithDbAsync(db => db.Commits.SingleAsync(c => c.ProjectId == projectId && c.OnDefaultBranch && c.Sha == Pushed(slug, 1)));
        Assert.Equal(Start.AddHours(20).AddMinutes(10), known.CommittedAt);
        Assert.Equal("change 1", known.Message);
    }

    [Fact]
    public async Task Bisection_needs_a_repository_the_agents_can_fetch()
    {
        await fixture.CreateProjectAsync("bisect-settings", "octo/bisect-settings");
        var admin = await App.ClientWithScopesAsync(Scopes.Admin);
        var refused = await admin.PatchAsJsonAsync("/api/v1/projects/bisect-settings", new { bisect = true });
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Contains("repositoryUrl", await refused.Content.ReadAsStringAsync());
        var created = await admin.PostAsJsonAsync("/api/v1/projects", new { slug = "bisect-created", name = "b", bisect = true });
        Assert.Equal(HttpStatusCode.BadRequest, created.StatusCode);

        var ok = await admin.PatchAsJsonAsync("/api/v1/projects/bisect-settings", new { bisect = true, repositoryUrl = "https://example.com/octo/b.git" });
        Assert.Equal(HttpStatusCode.OK, ok.StatusCode);
        var project = await App.CreateClient().GetFromJsonAsync<Projects.ProjectDto>("/api/v1/projects/bisect-settings");
        Assert.Equal((true, "https://example.com/octo/b.git", "octo/bisect-settings"), (project!.Bisect, project.RepositoryUrl, project.GitHubRepository));
        var anonymous = await App.CreateClient().PatchAsJsonAsync("/api/v1/projects/bisect-settings", new { bisect = false });
        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await admin.PatchAsJsonAsync("/api/v1/projects/nope", new { bisect = false })).StatusCode);
    }

    /// <summary>History at 1000, the push, its head measured at 1300 through its baseline job, then ten more points at 1300.</summary>
    private async Task<(string Slug, AgentClient Agent)> SetUpAsync(string slug, bool bisect)
    {
        await fixture.CreateProjectAsync(slug, $"octo/{slug}");
        var admin = await App.ClientWithScopesAsync(Scopes.Admin);
        (await admin.PatchAsJsonAsync($"/api/v1/projects/{slug}", new { bisect, repositoryUrl = $"https://example.com/octo/{slug}.git" })).EnsureSuccessStatusCode();
        var ingest = await App.ClientWithScopesAsync(Scopes.Ingest);
        for (var i = 0; i < 20; i++) await PostAsync(ingest, slug, History(i), 1000, committedAt: Start.AddHours(i));

        var commits = Enumerable.Range(1, 8).Select(k => new { id = Pushed(slug, k), timestamp = Start.AddHours(20).AddMinutes(10 * k), message = $"change {k}\n\nwhy" });
        var push = new
        {
            @ref = "refs/heads/main", before = History(19), after = Pushed(slug, 8), created = false, deleted = false, forced = false, commits,
            repository = new { id = 1, full_name = $"octo/{slug}", name = slug, default_branch = "main" },
        };
        Assert.Equal(HttpStatusCode.Accepted, (await fixture.DeliverAsync("push", push)).StatusCode);

        var agent = await AgentClient.RegisterAsync(App, $"{slug}-agent", Profile);
        var baseline = (await agent.ClaimAsync())!;
        Assert.Equal(Pushed(slug, 8), baseline.Commit);
        await PostAsync(agent, slug, baseline.Commit, 1300, baseline.JobId);
        Assert.Equal(HttpStatusCode.NoContent, (await agent.CompleteAsync(baseline.JobId)).StatusCode);
        for (var i = 0; i < 10; i++) await PostAsync(ingest, slug, GitHubFixture.Sha($"{slug}-after-{i}"), 1300, committedAt: Start.AddHours(22 + i));

        var projectId = await ProjectIdAsync(slug);
        var raised = await Eventually.WaitAsync(
            () => App.WithDbAsync(db => db.Alerts.AnyAsync(a => a.ProjectId == projectId && a.Kind == AlertKind.ChangePoint)), any => any);
        Assert.True(raised);
        return (slug, agent);
    }

    /// <summary>
    /// The alert's profiling job, queued when it was raised, is the agent's last job: the agent that measured the
    /// change's commit profiles it against the commit before (the range as raised) once no measuring job waits.
    /// </summary>
    private async Task ProfilingIsLastAsync(AgentClient agent, long alertId)
    {
        var claimed = (await agent.ClaimAsync())!;
        var job = await App.WithDbAsync(db => db.Jobs.SingleAsync(j => j.Id == claimed.JobId));
        var slug = claimed.Project;
        Assert.Equal((JobKind.Profile, alertId, Pushed(slug, 8), History(19), agent.Id, JobScheduler.ChangePointProfilePriority),
            (job.Kind, job.AlertId, job.Commit, job.BaseCommit, job.PinnedAgentId, job.Priority));
        Assert.Equal([new ProfileTarget("core", "Core.Append")], claimed.Profiling!.Targets);
        Assert.Equal(HttpStatusCode.NoContent, (await agent.CompleteAsync(claimed.JobId)).StatusCode);
        Assert.Null(await agent.ClaimAsync());
    }

    private static Task PostAsync(AgentClient agent, string slug, string commit, double level, long jobId) =>
        PostAsync(agent.Http, slug, commit, level, jobId: jobId, agentName: $"{slug}-agent");

    private static async Task PostAsync(HttpClient client, string slug, string commit, double level, long? jobId = null, string? agentName = null,
        DateTimeOffset? committedAt = null)
    {
        var meta = new RunMetadata
        {
            Project = slug, Commit = commit, CommittedAt = committedAt, Branch = "main", Profile = Profile, Suite = "core", JobId = jobId, Agent = agentName,
        };
        var files = Generic.Times(("Core.Append", Generic.Around(level, 0.01, 10, seed: Convert.ToInt32(commit[..6], 16))));
        Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(client, meta, null, ("r.json", files))).StatusCode);
    }

    // Every stored result of the project has been fed to its series (a replay may end on an older result than the newest).
    private async Task WaitForAnalysisAsync(long projectId) => await Eventually.WaitAsync(() => App.WithDbAsync(async db =>
    {
        var fed = await (from s in db.SeriesStates join b in db.Benchmarks on s.BenchmarkId equals b.Id join su in db.Suites on b.SuiteId equals su.Id
                         where su.ProjectId == projectId select s.State).ToListAsync();
        var stored = await (from r in db.Results join b in db.Benchmarks on r.BenchmarkId equals b.Id join su in db.Suites on b.SuiteId equals su.Id
                            where su.ProjectId == projectId && r.Value != null && r.BranchId != null select r.Id).CountAsync();
        return fed.Sum(state => Core.ChangePoints.OnlineDetectorStateCodec.Decode(state).Count) == stored;
    }), done => done);
}
