using PerfService.IntegrationTests.Ingestion;
using PerfService.Core.Comparison;

namespace PerfService.IntegrationTests.PullRequests;

/// <summary>Plays a pull-request job the way an agent does (claim, post each round's runs, complete) and waits for its verdicts.</summary>
internal static class PullRequestJobs
{
    public sealed record Judged(string Key, string Measure, Core.Comparison.Outcome Outcome, double? Change, double Threshold,
        int BaseSamples, int HeadSamples, string? Reason);

    /// <param name="samples">Generic-JSON output of one run of a role ("head" or "base") and round; null posts no run.</param>
    public static async Task<(long JobId, List<Judged> Verdicts)> RunAsync(PerfServiceApp app, AgentClient agent, string project, string profile,
        int pullRequest, string head, string @base, Func<string, int, byte[]?> samples, int rounds = 1, int expectedVerdicts = 1,
        Func<string, int, Disturbance?>? disturbance = null)
    {
        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        (await admin.PostAsJsonAsync("/api/v1/jobs", new { project, commit = head, baseCommit = @base, pullRequest, profiles = new[] { profile }, rounds }))
            .EnsureSuccessStatusCode();
        var job = (await agent.ClaimAsync())!;
        Assert.Equal(head, job.Commit);

        for (var round = 0; round < job.Rounds; round++)
            foreach (var role in new[] { "base", "head" })
            {
                if (samples(role, round) is not { } files) continue;
                var meta = new RunMetadata
                {
                    Project = project, Commit = role == "head" ? job.Commit : job.BaseCommit!, BaseCommit = job.BaseCommit,
                    PullRequest = job.PullRequest, Profile = profile, Agent = null, JobId = job.JobId, Suite = "fibers", Role = role, Round = round,
                    Disturbance = disturbance?.Invoke(role, round),
                };
                var response = await IngestionTests.Post(agent.Http, meta, $"job-{job.JobId}-{role}-{round}", ("results.json", files));
                Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            }
        Assert.Equal(HttpStatusCode.NoContent, (await agent.CompleteAsync(job.JobId)).StatusCode);

        var verdicts = await Eventually.WaitAsync(
            () => app.WithDbAsync(db => (from v in db.Verdicts
                                         join b in db.Benchmarks on v.BenchmarkId equals b.Id
                                         join m in db.Measures on v.MeasureId equals m.Id
                                         where v.JobId == job.JobId
                                         select new Judged(b.Key, m.Name, v.Outcome, v.Change, v.Threshold, v.BaseSamples, v.HeadSamples, v.Reason)).ToListAsync()),
            v => v.Count >= expectedVerdicts);
        return (job.JobId, verdicts);
    }

    /// <summary>Posts one main-branch run per level, an hour of commit time apart, with commits "{prefix}00", "{prefix}01", ...</summary>
    public static async Task SeedMainAsync(PerfServiceApp app, string project, string profile, string prefix, string benchmark, IReadOnlyList<double> levels)
    {
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        var start = new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
        for (var i = 0; i < levels.Count; i++)
        {
            var meta = new RunMetadata
            {
                Project = project, Commit = $"{prefix}{i:00}", CommittedAt = start.AddHours(i), Branch = "main", Profile = profile, Suite = "fibers",
            };
            var files = Generic.Times((benchmark, Generic.Around(levels[i], 0.01, 20, seed: 100 + i)));
            Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", files))).StatusCode);
        }
    }
}
