using System.Text.Json;
using PerfService.Core.Suites;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;
using PerfService.Core.Targets;

namespace PerfService.IntegrationTests.Security;

/// <summary>
/// Issue 12 §3: targets are stored from default-branch runs only. A pull request's perf.json that loosens a target is
/// judged for its own runs and never changes what main is held to.
/// </summary>
public class TargetTamperingTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private static TargetDeclaration Under(string name, double ns) => new() { Name = name, Benchmark = "Fibers.Switch", Op = "<", Value = ns };

    [Fact]
    public async Task A_pull_request_loosening_a_target_is_judged_by_its_own_declaration_and_main_keeps_the_stored_one()
    {
        await app.CreateProjectAsync("targets");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);

        var main = await Post(ingest, "aa000001", "main", null, 100, [Under("switch fast", 150)]);
        Assert.Equal(TargetStatus.Pass, await OutcomeAsync(main, "switch fast"));

        // The attack: a pull request (and a side branch) declare the target far looser, and add one of their own.
        var pr = await Post(ingest, "bb000001", "feature", 5, 200, [Under("switch fast", 10_000), Under("pr only", 10_000)]);
        var side = await Post(ingest, "cc000001", "side", null, 200, [Under("switch fast", 10_000)]);
        // Their own report judges them by what they declared...
        Assert.Equal(TargetStatus.Pass, await OutcomeAsync(pr, "switch fast"));
        Assert.Equal(TargetStatus.Pass, await OutcomeAsync(pr, "pr only"));
        Assert.Equal(TargetStatus.Pass, await OutcomeAsync(side, "switch fast"));

        // ...but the project's targets are main's, unchanged, and main's next slow run fails them.
        var stored = await app.WithDbAsync(db => db.Targets.Where(t => db.Projects.Any(p => p.Id == t.ProjectId && p.Slug == "targets")).ToListAsync());
        var target = Assert.Single(stored);
        Assert.Equal(("switch fast", 150.0), (target.Name, JsonSerializer.Deserialize<TargetDeclaration>(target.Definition, SuiteManifest.Json)!.Value));
        var slowMain = await Post(ingest, "aa000002", "main", null, 200, null);
        Assert.Equal(TargetStatus.Fail, await OutcomeAsync(slowMain, "switch fast"));
    }

    private static async Task<long> Post(HttpClient client, string commit, string branch, int? pullRequest, double ns, IReadOnlyList<TargetDeclaration>? targets)
    {
        var meta = new RunMetadata
        {
            Project = "targets", Commit = commit, Branch = branch, PullRequest = pullRequest, BaseCommit = pullRequest is null ? null : "aa000001",
            Profile = "m1-pro", Suite = "fibers", Targets = targets,
        };
        var response = await IngestionTests.Post(client, meta, null, ("r.json", Generic.Times(("Fibers.Switch", Generic.Around(ns, 0.01, 10, seed: 7)))));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        return (await System.Net.Http.Json.HttpContentJsonExtensions.ReadFromJsonAsync<RunCreated>(response.Content))!.RunId;
    }

    private async Task<TargetStatus?> OutcomeAsync(long runId, string target) =>
        (await Eventually.WaitAsync(() => app.WithDbAsync(db => db.TargetResults.Where(t => t.RunId == runId && t.Name.StartsWith(target))
            .Select(t => (TargetStatus?)t.Outcome).FirstOrDefaultAsync()), o => o is not null));
}
