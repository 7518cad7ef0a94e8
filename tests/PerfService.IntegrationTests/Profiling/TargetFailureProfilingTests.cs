using PerfService.AgentJobs;
using PerfService.Core.Suites;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;

namespace PerfService.IntegrationTests.Profiling;

/// <summary>
/// A push to the default branch that breaks a target queues one profiling job of the target's benchmarks (both sides of
/// its ratio) at that commit against the commit before, on the agent that measured it, ranked below measuring work; the
/// run and the alert list it. A commit where the target already failed before is not profiled again, and a pull
/// request's runs that fail the target are judged (and profiled) on the pull request only.
/// </summary>
public class TargetFailureProfilingTests : OwnServiceTests
{
    private const string Project = "target-prof";
    private const string Profile = "m1-pro";
    private static readonly DateTimeOffset Start = new(2026, 3, 1, 0, 0, 0, TimeSpan.Zero);

    private static readonly TargetDeclaration Overhead = new()
    {
        Name = "features under 10% overhead", Benchmark = "Pipeline.WithFeatures", Baseline = "Pipeline.NoFeatures", Op = "<=", Value = 1.1,
    };

    [Fact]
    public async Task The_commit_that_breaks_a_target_on_main_is_profiled_against_the_one_before_and_only_that_commit()
    {
        await app.CreateProjectAsync(Project);
        var agent = await AgentClient.RegisterAsync(app, "target-measurer", Profile);
        // The pull request is measured by another agent of the profile, which then ran the project's latest job.
        var reviewer = await AgentClient.RegisterAsync(app, "pull-measurer", Profile);

        var passing = await MeasureAsync(agent, "af000001", Start, withFeatures: 105);
        Assert.Empty(await ProfilingJobsAsync());

        // A pull request whose head fails the target: its regression is profiled for the pull request, not as a
        // default-branch target failure.
        await MeasureAsync(reviewer, "afee0001", Start.AddMinutes(30), withFeatures: 130, pullRequest: 7, baseCommit: "af000001");
        var ofPullRequest = await Eventually.WaitAsync(ProfilingJobsAsync, jobs => jobs.Count > 0);
        Assert.All(ofPullRequest, j => Assert.Equal((7, (long?)null, reviewer.Id), (j.PullRequest!.Value, j.AlertId, j.PinnedAgentId!.Value)));
        Assert.Empty(await app.WithDbAsync(db => db.Alerts.Where(a => a.Kind == AlertKind.Target).ToListAsync()));

        var breaking = await MeasureAsync(agent, "af000002", Start.AddHours(1), withFeatures: 130);
        var alert = await app.WithDbAsync(db => db.Alerts.SingleAsync(a => a.Kind == AlertKind.Target));
        Assert.Equal(("af000002", breaking), (alert.ToCommit, alert.RunId!.Value));
        var job = Assert.Single(await ProfilingJobsAsync(), j => j.PullRequest is null);
        Assert.Equal(("af000002", "af000001", agent.Id, alert.Id), (job.Commit, job.BaseCommit, job.PinnedAgentId!.Value, job.AlertId!.Value));
        Assert.Equal((JobScheduler.ChangePointProfilePriority, "main"), (job.Priority, job.Branch));
        Assert.Equal([new ProfileTarget("pipeline", "Pipeline.NoFeatures"), new ProfileTarget("pipeline", "Pipeline.WithFeatures")], job.Profiling!.Targets);

        // Where the failure shows, its profiles are listed: the run that broke the target and the alert it opened.
        var anonymous = app.CreateClient();
        foreach (var path in new[] { $"/api/v1/runs/{breaking}/profiles", $"/api/v1/alerts/{alert.Id}/profiles" })
            Assert.Equal([job.Id], (await anonymous.GetFromJsonAsync<List<PerfService.Profiling.ProfilingJobDto>>(path))!.Select(j => j.JobId));
        Assert.Empty((await anonymous.GetFromJsonAsync<List<PerfService.Profiling.ProfilingJobDto>>($"/api/v1/runs/{passing}/profiles"))!);

        // Someone closes the alert while the target still fails: the next failing commit opens a new alert, but the
        // target did not break there (it failed at the commit before), so nothing more is profiled.
        var triage = await app.ClientWithScopesAsync(Scopes.Admin);
        (await triage.PostAsJsonAsync($"/api/v1/alerts/{alert.Id}/state", new { state = "invalid", reason = "test" })).EnsureSuccessStatusCode();
        await MeasureAsync(agent, "af000003", Start.AddHours(2), withFeatures: 131);
        Assert.Equal(2, await app.WithDbAsync(db => db.Alerts.CountAsync(a => a.Kind == AlertKind.Target)));
        Assert.Equal([job.Id], (await ProfilingJobsAsync()).Where(j => j.PullRequest is null).Select(j => j.Id));
    }

    /// <summary>One job of one commit played as an agent plays it: claim, post the run (base too, on a pull
    /// request), complete; returns the head run's id once its analysis has evaluated the target.</summary>
    private async Task<long> MeasureAsync(AgentClient agent, string commit, DateTimeOffset at, double withFeatures, int? pullRequest = null, string? baseCommit = null)
    {
        await AgentClient.EnqueueAsync(app, pullRequest is null
            ? new { project = Project, commit, branch = "main", profiles = new[] { Profile } }
            : (object)new { project = Project, commit, baseCommit, pullRequest, profiles = new[] { Profile } });
        var claimed = (await agent.ClaimAsync())!;
        Assert.Equal(commit, claimed.Commit);
        long head = 0;
        foreach (var (role, sha, features) in pullRequest is null
                     ? new[] { ("head", commit, withFeatures) }
                     : [("base", baseCommit!, 105.0), ("head", commit, withFeatures)])
        {
            var meta = new RunMetadata
            {
                Project = Project, Commit = sha, CommittedAt = role == "head" ? at : null, BaseCommit = baseCommit, PullRequest = pullRequest,
                Branch = pullRequest is null ? "main" : null, Profile = Profile, JobId = claimed.JobId, Suite = "pipeline", Role = role, Targets = [Overhead],
            };
            var files = Generic.Times(("Pipeline.NoFeatures", Generic.Around(100, 0.005, 10, seed: 3)), ("Pipeline.WithFeatures", Generic.Around(features, 0.005, 10, seed: 5)));
            var response = await IngestionTests.Post(agent.Http, meta, $"job-{claimed.JobId}-{role}", ("r.json", files));
            Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            head = (await response.Content.ReadFromJsonAsync<RunCreated>())!.RunId;
        }
        Assert.Equal(HttpStatusCode.NoContent, (await agent.CompleteAsync(claimed.JobId)).StatusCode);
        await Eventually.WaitAsync(() => app.WithDbAsync(db => db.Runs.AnyAsync(r => r.Id == head && r.AnalysedAt != null)), analysed => analysed);
        return head;
    }

    private Task<List<Job>> ProfilingJobsAsync() =>
        app.WithDbAsync(db => db.Jobs.Where(j => j.Kind == JobKind.Profile).OrderBy(j => j.Id).ToListAsync());
}
