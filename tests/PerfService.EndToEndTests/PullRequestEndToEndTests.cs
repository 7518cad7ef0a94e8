using Microsoft.EntityFrameworkCore;
using PerfService.Agents;
using PerfService.Agents.Client;
using PerfService.Agents.Machine;
using PerfService.Agents.Worker;
using PerfService.Auth;
using PerfService.Core.Contracts;
using PerfService.Core.Reports;
using PerfService.IntegrationTests.GitHub;

namespace PerfService.EndToEndTests;

/// <summary>The fake GitHub and the service with its real, verdict-backed reports.</summary>
public sealed class RealReportsFixture : GitHubFixture
{
    protected override bool FakeReports => false;
}

/// <summary>
/// From a signed pull_request webhook to an updated comment and a failing check, through real agents (the agent's own
/// code, talking to the service over its HTTP API) running a suite with a planted regression; a second push updates
/// the same comment rather than adding one.
/// </summary>
public class PullRequestEndToEndTests(RealReportsFixture fixture) : IClassFixture<RealReportsFixture>
{
    private const string Repo = "octo/e2e";
    private readonly string _work = Directory.CreateTempSubdirectory("perf-pr-e2e-").FullName;
    private string? _agentToken;

    [Fact]
    public async Task A_planted_regression_fails_the_check_and_a_second_push_updates_the_one_comment()
    {
        var projectId = await fixture.CreateProjectAsync("pr-e2e", Repo);
        var repo = Path.Combine(_work, "repo");
        await fixture.App.WithDbAsync(db => db.Projects.Where(p => p.Id == projectId).ExecuteUpdateAsync(s => s.SetProperty(p => p.RepositoryUrl, repo)));
        var main = Commit(repo, level: 100);
        Git.Run(repo, "checkout", "-q", "-b", "feature");
        var head1 = Commit(repo, level: 150);

        await fixture.DeliverAsync("pull_request", Payload("opened", head1, main));
        await RunAgentsAsync();
        // The status is posted before the comment (it gates merging), so wait for both.
        var first = await WaitForStatusAsync(head1, "failure");
        await WaitForCommentAsync(head1);
        var comment = Assert.Single(fixture.GitHub.CommentsOn(Repo, 7));
        Assert.Contains("Regression", comment.Body, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("Queue.Push", comment.Body);
        Assert.Contains(CommentRenderer.Marker("pr-e2e"), comment.Body);
        Assert.Equal("failure", first.State);

        var head2 = Commit(repo, level: 180);
        await fixture.DeliverAsync("pull_request", Payload("synchronize", head2, main));
        await RunAgentsAsync();
        await WaitForStatusAsync(head2, "failure");
        await WaitForCommentAsync(head2);
        var updated = Assert.Single(fixture.GitHub.CommentsOn(Repo, 7));
        Assert.Equal(comment.Id, updated.Id);
        Assert.Contains(head2[..7], updated.Body);
        Assert.NotEmpty(fixture.GitHub.CallsTo("PATCH", "/issues/comments/"));
    }

    // A branch of the repository itself: trusted, so it runs without approval.
    private static object Payload(string action, string head, string baseSha) =>
        PerfService.IntegrationTests.GitHub.PullRequestPayloads.PullRequest(action, 7, Repo, head, baseSha);

    /// <summary>One agent per profile, each taking one job, as the agent process does with --once. The agents keep
    /// their token between pushes: an agent name belongs to the token that registered it.</summary>
    private async Task RunAgentsAsync()
    {
        var token = _agentToken ??= await fixture.App.CreateTokenAsync(Scopes.Agent);
        await Task.WhenAll(new[] { "ryzen-9950x", "i7-4790k", "m1-pro" }.Select(profile =>
            InProcessAgent.RunOnceAsync(fixture.App, token, profile, $"e2e-{profile}", Path.Combine(_work, profile))));
    }

    private async Task<FakeStatus> WaitForStatusAsync(string sha, string state)
    {
        FakeStatus? latest = null;
        await WaitUntilAsync(() => (latest = fixture.GitHub.StatusesOf(Repo, sha).OrderBy(s => s.Id).LastOrDefault())?.State == state,
            () => $"status of {sha[..7]} is {latest?.State ?? "none"}, expected {state}");
        return latest!;
    }

    private Task WaitForCommentAsync(string sha) =>
        WaitUntilAsync(() => fixture.GitHub.CommentsOn(Repo, 7).Any(c => c.Body.Contains(sha[..7], StringComparison.Ordinal)),
            () => $"no comment on #7 mentions {sha[..7]}");

    private static async Task WaitUntilAsync(Func<bool> done, Func<string> failure)
    {
        if (!await Eventually.TrueAsync(done, TimeSpan.FromMinutes(3), 300)) Assert.Fail(failure());
    }

    /// <summary>A commit whose suite reports Queue.Push around <paramref name="level"/> ns (20 samples) and Queue.Pop at 50 ns.</summary>
    private static string Commit(string repo, int level)
    {
        Directory.CreateDirectory(repo);
        File.WriteAllText(Path.Combine(repo, "perf.json"),
            """{ "suites": [ { "name": "queue", "harness": "json", "folder": ".", "command": "sh bench.sh", "timeoutSeconds": 60 } ] }""");
        File.WriteAllText(Path.Combine(repo, "level"), $"{level}\n");
        // Deterministic samples: level ± 1%, 20 of them; Pop never changes.
        File.WriteAllText(Path.Combine(repo, "bench.sh"), """
            l=$(cat level)
            push=""; pop=""
            for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
              push="$push$( [ $i -gt 0 ] && echo , )$((l * 100 + i * l / 20 - l / 2))e-2"
              pop="$pop$( [ $i -gt 0 ] && echo , )$((5000 + i * 5 - 50))e-2"
            done
            printf '{"results":[{"benchmark":"Queue.Push","unit":"ns","samples":[%s]},{"benchmark":"Queue.Pop","unit":"ns","samples":[%s]}]}' "$push" "$pop" > "$PERF_OUTPUT"
            """.ReplaceLineEndings("\n"));
        if (!Directory.Exists(Path.Combine(repo, ".git"))) Git.Init(repo);
        return Git.Commit(repo, $"level {level}");
    }
}
