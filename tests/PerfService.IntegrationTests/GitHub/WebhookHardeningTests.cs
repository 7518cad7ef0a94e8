using System.Text;
using System.Text.Json;
using PerfService.AgentJobs;
using PerfService.GitHub;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>
/// Attacks on the webhook endpoint through the real pipeline: oversized bodies, unsigned garbage, a signed body
/// replayed under a new delivery id, stale events, and commit ids that are not commit ids.
/// </summary>
public class WebhookHardeningTests(GitHubFixture fixture) : IClassFixture<GitHubFixture>
{
    private async Task<List<JobDto>> JobsAsync(string project) =>
        (await fixture.App.CreateClient().GetFromJsonAsync<List<JobDto>>($"/api/v1/jobs?project={project}&limit=1000"))!;

    private static HttpRequestMessage Raw(HttpContent content, string? signature, string eventName = "pull_request")
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/api/v1/github/webhook") { Content = content };
        request.Headers.Add("X-GitHub-Event", eventName);
        request.Headers.Add("X-GitHub-Delivery", Guid.NewGuid().ToString());
        if (signature is not null) request.Headers.Add(WebhookSignature.Header, signature);
        return request;
    }

    [Fact]
    public async Task A_body_declared_over_25_MB_is_refused_with_413_without_being_read()
    {
        // The header claims one byte over the cap; the body is 64 KiB. Had the service read the body, it would have found
        // 64 KiB under a wrong signature (401); 413 can only come from refusing on the declared length, before reading.
        var sent = new byte[64 * 1024];
        Array.Fill(sent, (byte)'{');
        var content = new ByteArrayContent(sent);
        content.Headers.ContentLength = GitHubWebhook.MaxBodyBytes + 1;
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        var response = await fixture.App.CreateClient().SendAsync(Raw(content, "sha256=" + new string('0', 64)), timeout.Token);
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);

        // The control: the same small body with its true length is read, and refused for its signature.
        var honest = await fixture.App.CreateClient().SendAsync(Raw(new ByteArrayContent(sent), "sha256=" + new string('0', 64)));
        Assert.Equal(HttpStatusCode.Unauthorized, honest.StatusCode);
    }

    [Fact]
    public async Task A_chunked_body_over_25_MB_is_refused_with_413()
    {
        var big = new byte[GitHubWebhook.MaxBodyBytes + 1];
        var content = new StreamContent(new MemoryStream(big));
        // No Content-Length: the service must cap its own read.
        var request = Raw(content, WebhookSignature.Sign(GitHubTestApp.WebhookSecret, big));
        request.Headers.TransferEncodingChunked = true;
        var response = await fixture.App.CreateClient().SendAsync(request);
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
    }

    [Fact]
    public async Task Malformed_json_with_a_bad_signature_is_401_not_400()
    {
        var garbage = Encoding.UTF8.GetBytes("{\"action\": \"opened\", \"number\": ");
        var bad = await fixture.App.CreateClient().SendAsync(Raw(new ByteArrayContent(garbage), WebhookSignature.Sign("not the secret", garbage)));
        Assert.Equal(HttpStatusCode.Unauthorized, bad.StatusCode);
        var unsigned = await fixture.App.CreateClient().SendAsync(Raw(new ByteArrayContent(garbage), null));
        Assert.Equal(HttpStatusCode.Unauthorized, unsigned.StatusCode);
        // The same garbage signed with the secret gets as far as the parser.
        var signed = await fixture.App.CreateClient().SendAsync(Raw(new ByteArrayContent(garbage), WebhookSignature.Sign(GitHubTestApp.WebhookSecret, garbage)));
        Assert.Equal(HttpStatusCode.BadRequest, signed.StatusCode);
    }

    [Fact]
    public async Task A_signed_body_replayed_under_a_new_delivery_id_is_ignored()
    {
        await fixture.CreateProjectAsync("hook-replay", "octo/hook-replay");
        var payload = PullRequestPayloads.PullRequest("opened", 1, "octo/hook-replay", GitHubFixture.Sha("replay"));
        var first = await fixture.DeliverAsync("pull_request", payload);
        Assert.Equal(3, (await first.Content.ReadFromJsonAsync<WebhookReply>())!.Jobs);

        // Byte for byte the same body and signature, a fresh delivery id.
        var replay = await fixture.DeliverAsync("pull_request", payload, delivery: Guid.NewGuid().ToString());
        Assert.Equal(HttpStatusCode.OK, replay.StatusCode);
        Assert.Equal("duplicate delivery ignored", (await replay.Content.ReadFromJsonAsync<WebhookReply>())!.Message);
        Assert.Equal(3, (await JobsAsync("hook-replay")).Count);
        var hashes = await fixture.App.WithDbAsync(db => db.WebhookDeliveries.Where(d => d.Event == "pull_request").Select(d => d.BodySha256).ToListAsync());
        Assert.All(hashes, h => Assert.Matches("^[0-9a-f]{64}$", h));
    }

    [Fact]
    public async Task An_event_whose_head_is_no_longer_the_head_queues_nothing()
    {
        await fixture.CreateProjectAsync("hook-stale", "octo/hook-stale");
        var (old, current) = (GitHubFixture.Sha("stale-1"), GitHubFixture.Sha("stale-2"));
        var openedAt = PullRequestPayloads.Tick();
        await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("opened", 2, "octo/hook-stale", old, updatedAt: openedAt));
        await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("synchronize", 2, "octo/hook-stale", current, before: old));

        // A late copy of an older event (a different body: not a replay), e.g. held up by a retry.
        var late = await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("reopened", 2, "octo/hook-stale", old, updatedAt: openedAt.AddSeconds(-1)));
        Assert.Equal(HttpStatusCode.Accepted, late.StatusCode);
        var reply = (await late.Content.ReadFromJsonAsync<WebhookReply>())!;
        Assert.Equal(0, reply.Jobs);
        Assert.Contains("stale", reply.Message);

        var jobs = await JobsAsync("hook-stale");
        Assert.Equal(3, jobs.Count(j => j.Commit == current && j.State == "Queued"));
        Assert.All(jobs.Where(j => j.Commit == old), j => Assert.Equal("Cancelled", j.State));

        // In the same second, a head change counts only from the event that names the recorded head as its 'before'.
        var sameSecond = PullRequestPayloads.Tick();
        var third = GitHubFixture.Sha("stale-3");
        await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("synchronize", 2, "octo/hook-stale", third, before: current, updatedAt: sameSecond));
        var reordered = await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("synchronize", 2, "octo/hook-stale", current, before: old, updatedAt: sameSecond));
        Assert.Contains("stale", (await reordered.Content.ReadFromJsonAsync<WebhookReply>())!.Message);
        jobs = await JobsAsync("hook-stale");
        Assert.Equal(3, jobs.Count(j => j.Commit == third && j.State == "Queued"));
        Assert.Equal(0, jobs.Count(j => j.Commit == current && j.State == "Queued"));
    }

    [Fact]
    public async Task A_stale_label_event_does_not_approve_the_new_head()
    {
        await fixture.CreateProjectAsync("hook-stale-label", "octo/hook-stale-label");
        var (old, current) = (GitHubFixture.Sha("stale-label-1"), GitHubFixture.Sha("stale-label-2"));
        var openedAt = PullRequestPayloads.Tick();
        await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("opened", 3, "octo/hook-stale-label", old, fork: "mallory/f", association: "NONE",
            author: "mallory", updatedAt: openedAt));
        await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("synchronize", 3, "octo/hook-stale-label", current, fork: "mallory/f",
            association: "NONE", author: "mallory", before: old));
        // A maintainer labelled the old head; the event arrives after the push that replaced it.
        var label = await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("labeled", 3, "octo/hook-stale-label", old, fork: "mallory/f",
            association: "NONE", author: "mallory", sender: "maintainer", label: "perf:run", updatedAt: openedAt.AddSeconds(1)));
        Assert.Contains("stale", (await label.Content.ReadFromJsonAsync<WebhookReply>())!.Message);
        Assert.All((await JobsAsync("hook-stale-label")).Where(j => j.Commit == current), j => Assert.Equal("AwaitingApproval", j.State));
    }

    [Theory]
    [InlineData(1, "--upload-pack=touch /tmp/pwned", "pull_request.head.sha")]
    [InlineData(2, "HEAD~1", "pull_request.head.sha")]
    [InlineData(3, "abc123", "pull_request.head.sha")]
    public async Task A_webhook_with_a_head_that_is_not_a_commit_id_is_refused(int n, string head, string field)
    {
        var slug = $"hook-sha-{n}";
        await fixture.CreateProjectAsync(slug, $"octo/{slug}");
        var response = await fixture.DeliverAsync("pull_request", PullRequestPayloads.PullRequest("opened", 4, $"octo/{slug}", head));
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.True(problem.GetProperty("errors").TryGetProperty(field, out _), problem.ToString());
        Assert.Empty(await JobsAsync(slug));

        var push = new
        {
            @ref = "refs/heads/main", before = new string('0', 40), after = head, created = false, deleted = false, forced = false,
            repository = new { id = 1, full_name = $"octo/{slug}", name = "x", default_branch = "main" },
        };
        var pushed = await fixture.DeliverAsync("push", push);
        Assert.Equal(HttpStatusCode.BadRequest, pushed.StatusCode);
        Assert.Contains("\"after\"", await pushed.Content.ReadAsStringAsync());
    }

    [Theory]
    [InlineData("--upload-pack=touch /tmp/pwned", null, "commit")]
    [InlineData("main", null, "commit")]
    [InlineData("a1b2c3d4", "-c core.sshCommand=x", "baseCommit")]
    public async Task Post_jobs_refuses_commit_ids_that_are_not_commit_ids(string commit, string? baseCommit, string field)
    {
        if (!await fixture.App.WithDbAsync(db => db.Projects.AnyAsync(p => p.Slug == "jobs-sha"))) await fixture.App.CreateProjectAsync("jobs-sha");
        var admin = await fixture.App.ClientWithScopesAsync(Scopes.Admin);
        var response = await admin.PostAsJsonAsync("/api/v1/jobs", new { project = "jobs-sha", commit, baseCommit, pullRequest = baseCommit is null ? (int?)null : 1 });
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.True(problem.GetProperty("errors").TryGetProperty(field, out _), problem.ToString());
        Assert.Empty(await JobsAsync("jobs-sha"));
    }

    [Fact]
    public async Task Post_runs_refuses_a_commit_that_looks_like_an_option()
    {
        if (!await fixture.App.WithDbAsync(db => db.Projects.AnyAsync(p => p.Slug == "runs-sha"))) await fixture.App.CreateProjectAsync("runs-sha");
        var ingest = await fixture.App.ClientWithScopesAsync(Scopes.Ingest);
        var go = Encoding.UTF8.GetBytes("BenchmarkX-8   1000   1234 ns/op\nPASS\n");
        foreach (var (commit, baseCommit, field) in new[] { ("--output=/etc/passwd", (string?)null, "run.commit"), ("a1b2c3d4", "HEAD^", "run.baseCommit") })
        {
            var meta = new Core.Contracts.RunMetadata { Project = "runs-sha", Commit = commit, BaseCommit = baseCommit, Profile = "m1-pro", Branch = "main" };
            var response = await ingest.PostAsync("/api/v1/runs", PerfServiceApp.Upload(meta, ("go.txt", go)));
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
            Assert.Contains(field, await response.Content.ReadAsStringAsync());
        }
        Assert.Equal(0, await fixture.App.WithDbAsync(db => db.Runs.CountAsync()));
    }
}
