using System.Net;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using PerfService.AgentJobs;
using PerfService.Auth;
using PerfService.Core.Contracts;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.GitHub;
using PerfService.IntegrationTests.Infrastructure;

namespace PerfService.EndToEndTests;

/// <summary>
/// The real agent profiling a real Go benchmark for the real service, with an unreliable network between them: the
/// profile gets through once, however its uploads were lost or refused on the way.
/// </summary>
public class ProfileUploadRetryEndToEndTests(GitHubFixture fixture) : IClassFixture<GitHubFixture>
{
    private const string Profile = "i7-4790k";
    private const string Suite = "go-small";
    private const string Benchmark = "small.BenchmarkSum";
    private readonly string _work = Directory.CreateTempSubdirectory("perf-profile-retry-e2e-").FullName;

    [Fact]
    public async Task A_profile_whose_answer_was_lost_and_that_was_then_refused_with_503_is_stored_once()
    {
        // The first upload reaches the service but its answer is lost; the next two meet a 503 in front of it.
        var network = new Network((request, profilePosts) => request.RequestUri!.AbsolutePath != "/api/v1/profiles" ? Fault.None
            : profilePosts switch { 1 => Fault.AnswerLost, 2 or 3 => Fault.Unavailable, _ => Fault.None });

        var job = await ProfileAsync("profile-retry", "retrier", network, uploadRetry: null);

        Assert.True(job.State == JobState.Succeeded, $"{job.State}: {job.Reason}\n{job.Log}");
        Assert.Equal(4, network.Seen.Count(p => p == "/api/v1/profiles"));
        Assert.Contains("(duplicate)", job.Log);
        Assert.Equal(1, await fixture.App.WithDbAsync(db => db.CpuProfiles.CountAsync(p => p.JobId == job.Id)));
    }

    [Fact]
    public async Task A_profile_spooled_while_the_service_was_away_is_stored_before_the_job_is_reported_done()
    {
        // Away from the first heartbeat (every call gets a 503) until the agent first reports the job done.
        var away = false;
        var network = new Network((request, _) =>
        {
            var path = request.RequestUri!.AbsolutePath;
            if (!away)
            {
                away = path.EndsWith("/heartbeat", StringComparison.Ordinal);
                return Fault.None;
            }
            if (path.EndsWith("/complete", StringComparison.Ordinal)) away = false;
            return Fault.Unavailable;
        });

        var job = await ProfileAsync("profile-away", "keeper", network, uploadRetry: TimeSpan.FromSeconds(2));

        Assert.True(job.State == JobState.Succeeded, $"{job.State}: {job.Reason}\n{job.Log}");
        Assert.Contains("kept in the spool, will retry", job.Log);
        var stored = Assert.Single(await fixture.App.WithDbAsync(db => db.CpuProfiles.Where(p => p.JobId == job.Id).ToListAsync()));
        Assert.Equal((Suite, Benchmark, RunRole.Head), (stored.Suite, stored.Benchmark, stored.Role));
        // Refused while away, then posted from the spool once the service was back, before the report it took.
        var seen = network.Seen;
        var firstComplete = seen.FindIndex(p => p.EndsWith("/complete", StringComparison.Ordinal));
        Assert.True(seen.Take(firstComplete).Count(p => p == "/api/v1/profiles") >= 2, string.Join('\n', seen));
        Assert.True(seen.FindLastIndex(p => p == "/api/v1/profiles") > firstComplete, string.Join('\n', seen));
        Assert.Empty(Directory.GetDirectories(Path.Combine(_work, "keeper", "spool")));
    }

    /// <summary>A profiling job of <see cref="Benchmark"/> at the small suites' commit, run by the in-process agent
    /// behind <paramref name="network"/>; the job as the service stored it.</summary>
    private async Task<Job> ProfileAsync(string slug, string agentName, Network network, TimeSpan? uploadRetry)
    {
        var projectId = await fixture.CreateProjectAsync(slug, $"octo/{slug}");
        var repo = Path.Combine(_work, slug);
        var commit = SuiteRepository.Create(repo);
        await fixture.App.WithDbAsync(db => db.Projects.Where(p => p.Id == projectId).ExecuteUpdateAsync(s => s.SetProperty(p => p.RepositoryUrl, repo)));
        var token = await fixture.App.CreateTokenAsync(Scopes.Agent);
        var agent = await AgentClient.RegisterAsync(fixture.App, agentName, Profile,
            Agents.Client.PerfServiceClient.CreateHttpClient("http://localhost", token, fixture.App.Server.CreateHandler()));
        var jobId = await fixture.App.WithDbAsync(async db =>
        {
            var scheduler = new JobScheduler(db, fixture.App.Services.GetRequiredService<JobQueue>(),
                fixture.App.Services.GetRequiredService<IOptions<JobOptions>>(), TimeProvider.System);
            var profileId = await db.Profiles.Where(p => p.Name == Profile).Select(p => p.Id).SingleAsync();
            var job = scheduler.AddProfiling(projectId, profileId, commit, null, "main", null, null, agent.Id,
                [new ProfileTarget(Suite, Benchmark)], untrusted: false, held: false);
            await db.SaveChangesAsync();
            return job.Id;
        });

        await InProcessAgent.RunOnceAsync(fixture.App, token, Profile, agentName, Path.Combine(_work, agentName), TimeSpan.FromMinutes(5),
            handler => new Network.Wrapped(network, handler), uploadRetry);

        return await fixture.App.WithDbAsync(db => db.Jobs.AsNoTracking().SingleAsync(j => j.Id == jobId));
    }

    private enum Fault { None, Unavailable, AnswerLost }

    /// <summary>Decides, request by request, whether it goes through, meets a 503 in the service's place, or reaches
    /// the service and loses its answer on the way back. Records every path it saw, in order.</summary>
    private sealed class Network(Func<HttpRequestMessage, int, Fault> plan)
    {
        private readonly Lock _lock = new();
        private readonly List<string> _seen = [];

        public List<string> Seen
        {
            get { lock (_lock) return [.. _seen]; }
        }

        private Fault Decide(HttpRequestMessage request)
        {
            lock (_lock)
            {
                _seen.Add(request.RequestUri!.AbsolutePath);
                return plan(request, _seen.Count(p => p == "/api/v1/profiles"));
            }
        }

        public sealed class Wrapped(Network network, HttpMessageHandler inner) : DelegatingHandler(inner)
        {
            protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken ct)
            {
                switch (network.Decide(request))
                {
                    case Fault.Unavailable:
                        return new HttpResponseMessage(HttpStatusCode.ServiceUnavailable) { Content = new StringContent("restarting") };
                    case Fault.AnswerLost:
                        (await base.SendAsync(request, ct)).Dispose();
                        throw new HttpRequestException("the connection was reset before the answer arrived");
                    default:
                        return await base.SendAsync(request, ct);
                }
            }
        }
    }
}
