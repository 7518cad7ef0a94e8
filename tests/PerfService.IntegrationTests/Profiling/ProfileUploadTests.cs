using System.Text;
using PerfService.Profiling;

namespace PerfService.IntegrationTests.Profiling;

/// <summary>POST /api/v1/profiles: the honest upload read back, and each hostile one refused naming its field.</summary>
public class ProfileUploadTests : OwnServiceTests<ProfileUploadTests.SmallLimits>
{
    public sealed class SmallLimits : PerfServiceApp
    {
        protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?>
        {
            ["Profiles:MaxUploadBytes"] = "65536", ["Profiles:MaxDepth"] = "64",
        };
    }

    private const string Benchmark = "Rivulet.Streams.ParallelFor";

    [Fact]
    public async Task A_profile_posted_by_the_agent_holding_the_job_reads_back_native_folded_and_differential()
    {
        await app.CreateProjectAsync("prof-up");
        var agent = await AgentClient.RegisterAsync(app, "prof-agent", "m1-pro");
        var jobId = await ProfileUploads.QueueAsync(app, "prof-up", "m1-pro", Benchmark);
        var claimed = (await agent.ClaimAsync())!;
        Assert.Equal(jobId, claimed.JobId);
        Assert.Equal([new ProfileTarget(ProfileUploads.Suite, Benchmark)], claimed.Profiling!.Targets);

        var baseFolded = ProfileUploads.Folded("Rivulet.RetryPolicy.Execute", 0.10);
        var post = await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "base", baseFolded);
        Assert.Equal(HttpStatusCode.Created, post.StatusCode);
        var created = (await post.Content.ReadFromJsonAsync<ProfileCreated>())!;
        Assert.Equal(HttpStatusCode.Created, (await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "head",
            ProfileUploads.Folded("Rivulet.RetryPolicy.Execute", 0.28))).StatusCode);

        var anonymous = app.CreateClient();
        Assert.Equal(baseFolded, await anonymous.GetStringAsync($"/api/v1/profiles/{created.ProfileId}/native"));
        // The folded form is normalised: the JIT tier is gone, so base and head line up.
        Assert.Contains("Main;Bench.Run;Rivulet.RetryPolicy.Execute 200\n", await anonymous.GetStringAsync($"/api/v1/profiles/{created.ProfileId}/folded"));
        var listed = (await anonymous.GetFromJsonAsync<List<CpuProfileDto>>($"/api/v1/jobs/{jobId}/profiles"))!;
        Assert.Equal(["base", "head"], listed.Select(p => p.Role));
        Assert.All(listed, p => Assert.Equal(2000, p.Samples));

        var diff = (await anonymous.GetFromJsonAsync<DifferentialDto>($"/api/v1/jobs/{jobId}/profiles/differential?benchmark={Uri.EscapeDataString(Benchmark)}"))!;
        Assert.Equal("Rivulet.RetryPolicy.Execute", diff.Grown[0].Frame);
        Assert.Equal(0.18, diff.Grown[0].Growth, 6);
        Assert.StartsWith("`Rivulet.RetryPolicy.Execute` +18% of samples", diff.Summary[0]);
        Assert.False(diff.TooFewSamples);
        var pr = (await anonymous.GetFromJsonAsync<List<ProfilingJobDto>>("/api/v1/projects/prof-up/pulls/1/profiles"))!;
        Assert.Equal(2, Assert.Single(pr).Profiles.Count);
    }

    [Fact]
    public async Task Hostile_uploads_are_refused_and_name_the_field_at_fault()
    {
        await app.CreateProjectAsync("prof-bad");
        var agent = await AgentClient.RegisterAsync(app, "prof-holder", "m1-pro");
        var other = await AgentClient.RegisterAsync(app, "prof-other", "m1-pro"); // its own agent token
        var jobId = await ProfileUploads.QueueAsync(app, "prof-bad", "m1-pro", Benchmark);
        Assert.Equal(jobId, (await agent.ClaimAsync())!.JobId);
        var good = ProfileUploads.Folded("Hot", 0.5);

        async Task Refused(HttpResponseMessage response, HttpStatusCode status, string field)
        {
            var body = await response.Content.ReadAsStringAsync();
            Assert.True(status == response.StatusCode, $"{(int)response.StatusCode} {body}");
            Assert.Contains($"\"field\":\"{field}\"", body);
        }

        // Too big: over Profiles:MaxUploadBytes (64 KB here).
        await Refused(await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "head", new string('x', 70_000) + " 1\n"), HttpStatusCode.RequestEntityTooLarge, "file");
        // Not the format it claims, an unknown format, a stack deeper than the limit.
        await Refused(await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "head", "<script>alert(1)</script>\n"), HttpStatusCode.BadRequest, "file");
        await Refused(await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "head", good, format: "jfr"), HttpStatusCode.BadRequest, "format");
        await Refused(await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "head", string.Join(';', Enumerable.Range(0, 65).Select(i => $"f{i}")) + " 5\n"),
            HttpStatusCode.BadRequest, "file");
        await Refused(await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "middle", good), HttpStatusCode.BadRequest, "role");
        await Refused(await agent.Http.PostAsync("/api/v1/profiles", ProfileUploads.Body(null!, Encoding.UTF8.GetBytes(good), "{not json")), HttpStatusCode.BadRequest, "profile");
        // A benchmark the job did not ask for.
        await Refused(await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, "Other.Bench", "head", good), HttpStatusCode.BadRequest, "benchmark");
        // A job that does not exist; another agent's job (with its own token, naming itself); a measuring job.
        await Refused(await ProfileUploads.PostAsync(agent.Http, jobId + 1000, agent.Id, Benchmark, "head", good), HttpStatusCode.NotFound, "jobId");
        await Refused(await ProfileUploads.PostAsync(other.Http, jobId, other.Id, Benchmark, "head", good), HttpStatusCode.Conflict, "jobId");
        await Refused(await ProfileUploads.PostAsync(other.Http, jobId, agent.Id, Benchmark, "head", good), HttpStatusCode.Forbidden, "agentId");
        var measuring = (await AgentClient.EnqueueAsync(app, new { project = "prof-bad", commit = "abcd0002", profiles = new[] { "m1-pro" } }))[0].Id;
        Assert.Equal(measuring, (await other.ClaimAsync())!.JobId);
        await Refused(await ProfileUploads.PostAsync(other.Http, measuring, other.Id, Benchmark, "head", good), HttpStatusCode.Conflict, "jobId");
        // A read-only token may not post at all.
        Assert.Equal(HttpStatusCode.Forbidden, (await ProfileUploads.PostAsync(await app.ClientWithScopesAsync(Scopes.Read), jobId, agent.Id, Benchmark, "head", good)).StatusCode);

        Assert.Equal(0, await app.WithDbAsync(db => db.CpuProfiles.CountAsync()));
        // The honest upload still goes through.
        Assert.Equal(HttpStatusCode.Created, (await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "head", good)).StatusCode);
    }

    [Fact]
    public async Task A_repeated_upload_stores_one_profile_and_its_repeat_is_answered_with_it_after_the_job_too()
    {
        await app.CreateProjectAsync("prof-again");
        var agent = await AgentClient.RegisterAsync(app, "prof-again-agent", "m1-pro");
        var other = await AgentClient.RegisterAsync(app, "prof-again-other", "m1-pro");
        var jobId = await ProfileUploads.QueueAsync(app, "prof-again", "m1-pro", Benchmark);
        Assert.Equal(jobId, (await agent.ClaimAsync())!.JobId);
        var folded = ProfileUploads.Folded("Hot", 0.5);

        // The agent's retries: the same upload three times at once (an answer lost while the first is being stored),
        // then once more.
        var posts = await Task.WhenAll(Enumerable.Range(0, 3).Select(_ => ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "head", folded)));
        var answers = await Task.WhenAll(posts.Select(p => p.Content.ReadFromJsonAsync<ProfileCreated>()));
        Assert.Equal([HttpStatusCode.Created], posts.Select(p => p.StatusCode).Where(s => s != HttpStatusCode.OK));
        var first = Assert.Single(answers, a => !a!.Duplicate)!;
        Assert.All(answers, a => Assert.Equal(first.ProfileId, a!.ProfileId));
        var again = await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "head", folded);
        Assert.Equal(HttpStatusCode.OK, again.StatusCode);
        Assert.Equal(new ProfileCreated(first.ProfileId, Duplicate: true), await again.Content.ReadFromJsonAsync<ProfileCreated>());

        // Once the job is done, the agent's spool may still post it: answered with the stored one. A slot it never
        // filled is refused, and so is another agent's post of the stored slot.
        Assert.True((await agent.CompleteAsync(jobId)).IsSuccessStatusCode);
        var late = await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "head", folded);
        Assert.Equal(HttpStatusCode.OK, late.StatusCode);
        Assert.Equal(first.ProfileId, (await late.Content.ReadFromJsonAsync<ProfileCreated>())!.ProfileId);
        Assert.Equal(HttpStatusCode.Conflict, (await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "base", folded)).StatusCode);
        Assert.Equal(HttpStatusCode.Conflict, (await ProfileUploads.PostAsync(other.Http, jobId, other.Id, Benchmark, "head", folded)).StatusCode);
        Assert.Equal(1, await app.WithDbAsync(db => db.CpuProfiles.CountAsync(p => p.JobId == jobId)));
    }

    [Fact]
    public async Task A_profiling_job_cannot_post_runs()
    {
        await app.CreateProjectAsync("prof-runs");
        var agent = await AgentClient.RegisterAsync(app, "prof-runner", "m1-pro");
        var jobId = await ProfileUploads.QueueAsync(app, "prof-runs", "m1-pro", Benchmark);
        Assert.Equal(jobId, (await agent.ClaimAsync())!.JobId);
        var meta = new RunMetadata { Project = "prof-runs", Commit = "abcd0001", PullRequest = 1, BaseCommit = "abcd0000", Profile = "m1-pro", JobId = jobId, Suite = "fibers", Role = "head" };
        var response = await Ingestion.IngestionTests.Post(agent.Http, meta, null, ("r.json", Generic.Times(("Rivulet.Streams.ParallelFor", Generic.Around(100, 0.01, 20, seed: 1)))));
        Assert.Equal(HttpStatusCode.Conflict, response.StatusCode);
        Assert.Contains("profiling job", await response.Content.ReadAsStringAsync());
        Assert.Equal(0, await app.WithDbAsync(db => db.Runs.CountAsync()));
    }

    [Fact]
    public async Task A_private_projects_profiles_are_seen_only_by_who_may_see_its_runs()
    {
        await app.CreateProjectAsync("prof-secret", isPublic: false);
        await app.CreateProjectAsync("prof-open");
        var agent = await AgentClient.RegisterAsync(app, "prof-secret-agent", "m1-pro");
        var jobId = await ProfileUploads.QueueAsync(app, "prof-secret", "m1-pro", Benchmark);
        Assert.Equal(jobId, (await agent.ClaimAsync())!.JobId);
        var post = await ProfileUploads.PostAsync(agent.Http, jobId, agent.Id, Benchmark, "head", ProfileUploads.Folded("Secret.Frame", 0.5));
        var id = (await post.Content.ReadFromJsonAsync<ProfileCreated>())!.ProfileId;

        var reader = await app.ClientWithScopesAsync(Scopes.Read);
        var openId = await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == "prof-open").Select(p => p.Id).SingleAsync());
        var boundElsewhere = app.CreateClient();
        boundElsewhere.DefaultRequestHeaders.Authorization = new("Bearer", await app.WithDbAsync(db => TokenCommands.CreateAsync(db, "bound-open", [Scopes.Read], openId)));
        var urls = new[]
        {
            $"/api/v1/profiles/{id}/native", $"/api/v1/profiles/{id}/folded", $"/api/v1/jobs/{jobId}/profiles",
            $"/api/v1/jobs/{jobId}/profiles/differential?benchmark={Uri.EscapeDataString(Benchmark)}", "/api/v1/projects/prof-secret/pulls/1/profiles",
        };
        foreach (var url in urls)
        {
            Assert.Equal(HttpStatusCode.OK, (await reader.GetAsync(url)).StatusCode);
            foreach (var stranger in new[] { app.CreateClient(), boundElsewhere })
            {
                var refused = await stranger.GetAsync(url);
                Assert.Equal(HttpStatusCode.NotFound, refused.StatusCode);
                Assert.DoesNotContain("Secret.Frame", await refused.Content.ReadAsStringAsync());
            }
        }
    }
}
