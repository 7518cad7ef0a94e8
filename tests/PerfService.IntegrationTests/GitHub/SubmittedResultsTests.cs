using Microsoft.Extensions.DependencyInjection;
using PerfService.Core.Comparison;
using PerfService.Core.Reports;
using PerfService.IntegrationTests.Ingestion;
using PerfService.IntegrationTests.PullRequests;
using PerfService.PullRequests;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>
/// Results a CI job posts itself for a pull request (an ingest token, <c>perf submit --pr N</c>, no agent job) stay
/// apart from what the agents measure: a status context and a section of their own, never the agents' verdict.
/// </summary>
public class SubmittedResultsTests(RealReportsGitHubAppFixture fixture) : IClassFixture<RealReportsGitHubAppFixture>
{
    private const string Profile = "m1-pro";

    [Fact]
    public async Task Submitted_results_for_a_head_the_agents_judged_a_regression_get_their_own_context_and_section()
    {
        const string slug = "submit-attack";
        const string repo = $"octo/{slug}";
        var head = await fixture.OpenJudgedAsync(slug, 1, "Demo.Parse");
        var project = await fixture.ProjectIdAsync(slug);
        var agents = await ReportAsync(project, 1);
        IReadOnlyList<string> AgentStatuses() => fixture.GitHub.StatusesOf(repo, head).Where(s => s.Context == $"perfservice/{slug}").Select(s => s.State).ToList();
        var before = AgentStatuses().Count;
        Assert.Equal("failure", AgentStatuses()[^1]);

        // The attack: an ingest token posts fast results for the same head, hoping to turn the pull request green.
        await PullRequestJobs.SeedMainAsync(fixture.App, slug, Profile, "ab00", "Fibers.Switch", [100, 100, 100, 100, 100, 100]);
        await SubmitAsync(slug, head, 1, 80);
        var submitted = await Eventually.WaitAsync(() => Task.FromResult(fixture.GitHub.StatusesOf(repo, head).Where(s => s.Context == $"perfservice/{slug}/submitted").ToList()),
            s => s.Count > 0 && s[^1].State != "pending");
        Assert.Equal("success", submitted.Last().State);

        // The agents' verdict stands: its status stays failure, its check stays failed, its rows are the same.
        Assert.All(AgentStatuses().Skip(before - 1), s => Assert.Equal("failure", s));
        Assert.Equal("failure", fixture.GitHub.CheckRunsOf(repo, head).Last().Conclusion);
        var report = (await ReportAsync(project, 1))!;
        Assert.False(report.FromSubmissions);
        Assert.Equal(agents!.Rows.Select(Row), report.Rows.Select(Row));
        Assert.Equal(agents.Check, report.Check);
        // The submitted section has its own numbers under its own context.
        var section = report.Submitted!;
        Assert.True(section.FromSubmissions);
        Assert.Equal($"perfservice/{slug}/submitted", section.StatusContext);
        var row = Assert.Single(section.Rows);
        Assert.Equal(("Fibers.Switch", Outcome.Improvement), (row.Benchmark, row.Outcome));
        var comment = await Eventually.WaitAsync(() => Task.FromResult(fixture.GitHub.CommentsOn(repo, 1).Last().Body), b => b.Contains("#### Submitted from CI", StringComparison.Ordinal));
        Assert.StartsWith($"### 🔴 PerfService · `{slug}`\n\n**{agents.Summary.Total.Describe()}**", comment);
        Assert.Contains("#### Submitted from CI", comment);
        Assert.Contains($"**{section.Summary.Total.Describe()}**", comment[comment.IndexOf("#### Submitted from CI", StringComparison.Ordinal)..]);
    }

    [Fact]
    public async Task A_project_whose_results_all_come_from_ci_gets_its_verdict_in_the_submitted_context()
    {
        const string slug = "submit-only";
        const string repo = $"octo/{slug}";
        var project = await fixture.CreateProjectAsync(slug, repo);
        await PullRequestJobs.SeedMainAsync(fixture.App, slug, Profile, "ab00", "Fibers.Switch", [100, 100, 100, 100, 100, 100]);
        var head = GitHubFixture.Sha(slug);
        await SubmitAsync(slug, head, 2, 125);

        var statuses = await Eventually.WaitAsync(() => Task.FromResult(fixture.GitHub.StatusesOf(repo, head).ToList()),
            s => s.Count > 0 && s[^1].State != "pending");
        Assert.All(statuses, s => Assert.Equal($"perfservice/{slug}/submitted", s.Context));
        Assert.Equal("failure", statuses.Last().State);
        Assert.Empty(fixture.GitHub.CheckRunsOf(repo, head));
        var report = (await ReportAsync(project, 2))!;
        Assert.True(report.FromSubmissions);
        Assert.Null(report.Submitted);
        Assert.Equal(Outcome.Regression, Assert.Single(report.Rows).Outcome);
        var comment = await Eventually.WaitAsync(() => Task.FromResult(fixture.GitHub.CommentsOn(repo, 2).LastOrDefault()?.Body ?? ""), b => b.Length > 0);
        Assert.Contains($"(status `perfservice/{slug}/submitted`)", comment);
    }

    private async Task SubmitAsync(string slug, string head, int pullRequest, double ns)
    {
        var ingest = await fixture.App.ClientWithScopesAsync(Scopes.Ingest);
        var meta = new RunMetadata
        {
            Project = slug, Commit = head, BaseCommit = "ab0005", PullRequest = pullRequest, Branch = "feature", Profile = Profile, Suite = "fibers",
        };
        var response = await IngestionTests.Post(ingest, meta, null, ("r.json", Generic.Times(("Fibers.Switch", Generic.Around(ns, 0.01, 20, seed: 3)))));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    private static string Row(ReportRow r) => $"{r.Benchmark} {r.Profile} {r.Outcome} {r.Change}";

    private async Task<PullRequestReport?> ReportAsync(long project, int number)
    {
        await using var scope = fixture.App.Services.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<PullRequestReports>().BuildAsync(project, number, CancellationToken.None);
    }
}
