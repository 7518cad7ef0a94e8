using System.Net;
using System.Net.Http.Json;
using Microsoft.EntityFrameworkCore;
using PerfService.Agents.Client;
using PerfService.Auth;
using PerfService.Core.Contracts;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.GitHub;
using PerfService.IntegrationTests.Infrastructure;
using PerfService.Profiling;

namespace PerfService.EndToEndTests;

/// <summary>
/// A slowdown on the default branch, planted at one commit of a real repository (the Go suite of benches/, slowed
/// through PERF_SLOWDOWN in perf.json), raises a change-point alert; the agent that measured that commit profiles it
/// against the commit before, with the real agent and go test -cpuprofile, and the alert's differential profile names
/// the slowdown's own function as the frame that grew most.
/// </summary>
public class ChangePointProfilingEndToEndTests(GitHubFixture fixture) : IClassFixture<GitHubFixture>
{
    private const string Profile = "i7-4790k";
    private const string AgentName = "cp-profiler";
    private const string Benchmark = "perfbench.BenchmarkRead/simple";
    // Posted at the same levels: a second alert at the same commit, which shares the first one's profiling job.
    private const string Sibling = "perfbench.BenchmarkRead/by_type";
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
    private readonly string _work = Directory.CreateTempSubdirectory("perf-cp-profile-e2e-").FullName;

    [Fact]
    public async Task A_change_point_is_profiled_by_the_agent_that_measured_it_and_the_slowdown_is_the_top_grown_frame()
    {
        var projectId = await fixture.CreateProjectAsync("cp-profile", "octo/cp-profile");
        var repo = Path.Combine(_work, "repo");
        await fixture.App.WithDbAsync(db => db.Projects.Where(p => p.Id == projectId).ExecuteUpdateAsync(s => s.SetProperty(p => p.RepositoryUrl, repo)));
        var (before, after) = CommitSuite(repo);

        // The history: 20 points at one level, the commit before the change, the change's commit measured by our agent
        // (the one the profile is pinned to), then ten points at twice the level.
        var token = await fixture.App.CreateTokenAsync(Scopes.Agent);
        using var http = PerfServiceClient.CreateHttpClient("http://localhost", token, fixture.App.Server.CreateHandler());
        var agent = await AgentClient.RegisterAsync(fixture.App, AgentName, Profile, http);
        for (var i = 0; i < 20; i++) await PostAsync(http, GitHubFixture.Sha($"cp-history-{i}"), 1000, Start.AddHours(i));
        await PostAsync(http, before, 1000, Start.AddHours(20));
        await PostAsync(http, after, 2000, Start.AddHours(21), AgentName);
        for (var i = 0; i < 10; i++) await PostAsync(http, GitHubFixture.Sha($"cp-after-{i}"), 2000, Start.AddHours(22 + i));

        var alerts = await Eventually.WaitAsync(() => fixture.App.WithDbAsync(db =>
            db.Alerts.Where(a => a.ProjectId == projectId && a.Kind == AlertKind.ChangePoint).Include(a => a.Benchmark).ToListAsync()),
            a => a.Count == 2, TimeSpan.FromMinutes(2));
        var alert = alerts.Single(a => a.Benchmark!.Key == Benchmark);
        Assert.All(alerts, a => Assert.Equal((before, after), (a.FromCommit, a.ToCommit)));
        // One job for the commit: both alerts' benchmarks, one checkout and build a side.
        var queued = await fixture.App.WithDbAsync(db => db.Jobs.SingleAsync(j => j.Kind == JobKind.Profile));
        Assert.Equal((after, before, agent.Id, (int?)null), (queued.Commit, queued.BaseCommit, queued.PinnedAgentId, queued.PullRequest));
        Assert.Contains(queued.AlertId, alerts.Select(a => (long?)a.Id));
        Assert.Equal([new ProfileTarget("eventstore", Sibling), new ProfileTarget("eventstore", Benchmark)],
            queued.Profiling!.Targets.OrderBy(t => t.Benchmark, StringComparer.Ordinal));

        await InProcessAgent.RunOnceAsync(fixture.App, token, Profile, AgentName, Path.Combine(_work, "agent"), TimeSpan.FromMinutes(10));

        var job = await fixture.App.WithDbAsync(db => db.Jobs.SingleAsync(j => j.Id == queued.Id));
        Assert.True(job.State == JobState.Succeeded, $"{job.State}: {job.Reason}\n{job.Log}");
        // The alert page's profiles section reads this route: base and head of the benchmark, one link to the graph.
        var anonymous = fixture.App.CreateClient();
        foreach (var each in alerts)
        {
            var listed = Assert.Single((await anonymous.GetFromJsonAsync<List<ProfilingJobDto>>($"/api/v1/alerts/{each.Id}/profiles"))!);
            Assert.Equal(job.Id, listed.JobId);
            Assert.Equal(["base", "head"], listed.Profiles.Where(p => p.Benchmark == each.Benchmark!.Key).Select(p => p.Role).Order());
        }
        var diff = (await anonymous.GetFromJsonAsync<DifferentialDto>(
            $"/api/v1/jobs/{job.Id}/profiles/differential?benchmark={Uri.EscapeDataString(Benchmark)}"))!;
        Assert.Equal(queued.AlertId, diff.AlertId);
        Assert.Equal("perfbench.slowdownWork", diff.Grown[0].Frame);
        // Nothing measured: a profiling run feeds no series.
        Assert.Equal(0, await fixture.App.WithDbAsync(db => db.Runs.CountAsync(r => r.JobId == job.Id)));
    }

    /// <summary>benches/go as the suite; the second commit plants a 100% slowdown of the profiled benchmark.</summary>
    private static (string Before, string After) CommitSuite(string repo)
    {
        var source = Path.Combine(SuiteRepository.Repo(), "benches", "go");
        foreach (var file in Directory.EnumerateFiles(source, "*", SearchOption.AllDirectories))
        {
            var target = Path.Combine(repo, "go", Path.GetRelativePath(source, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
        Git.Init(repo);
        const string suite = """{ "name": "eventstore", "harness": "gobench", "folder": "go", "args": ["-benchtime=100ms"] """;
        var before = Git.Commit(repo, "event store", ("perf.json", $$"""{ "suites": [ {{suite}} } ] }"""));
        var after = Git.Commit(repo, "slower reads", ("perf.json", $$"""{ "suites": [ {{suite}}, "env": { "PERF_SLOWDOWN": "BenchmarkRead/simple=100" } } ] }"""));
        return (before, after);
    }

    private static async Task PostAsync(HttpClient client, string commit, double level, DateTimeOffset committedAt, string? agent = null)
    {
        var meta = new RunMetadata
        {
            Project = "cp-profile", Commit = commit, CommittedAt = committedAt, Branch = "main", Profile = Profile, Suite = "eventstore", Agent = agent,
        };
        var seed = Convert.ToInt32(commit[..6], 16);
        var files = Generic.Times((Benchmark, Generic.Around(level, 0.01, 10, seed)), (Sibling, Generic.Around(level * 2, 0.01, 10, seed + 1)));
        var response = await client.PostAsync("/api/v1/runs", PerfServiceApp.Upload(meta, ("r.json", files)));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }
}
