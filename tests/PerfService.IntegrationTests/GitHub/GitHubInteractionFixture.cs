using Microsoft.Extensions.DependencyInjection;
using PerfService.Data.Entities;
using Outcome = PerfService.Core.Comparison.Outcome;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>A GitHub App install with the real, job- and verdict-backed reports: what check buttons and commands act on.</summary>
public sealed class RealReportsGitHubAppFixture : GitHubAppFixture
{
    public const string Maintainer = "maint";
    public const string Outsider = "mallory";

    protected override bool FakeReports => false;

    public override async Task InitializeAsync()
    {
        await base.InitializeAsync();
        GitHub.SetPermission(Maintainer, "write");
        GitHub.SetPermission(Outsider, "read");
    }

    /// <summary>
    /// Opens a pull request by webhook (the real path: head recorded, jobs queued), then finishes its jobs as agents
    /// and the comparison would have: every profile judged, <paramref name="regressed"/> a regression with its alert
    /// on the first profile. Returns the head.
    /// </summary>
    public Task<string> OpenJudgedAsync(string slug, int number, params string[] regressed) => OpenJudgedAsync(slug, number, true, regressed);

    /// <param name="judgeAll">False: the other profiles' jobs have succeeded but their comparison has not run yet.</param>
    public async Task<string> OpenJudgedAsync(string slug, int number, bool judgeAll, params string[] regressed)
    {
        var repo = $"octo/{slug}";
        await CreateProjectAsync(slug, repo);
        var head = Sha(slug);
        (await DeliverAsync("pull_request", PullRequestPayloads.PullRequest("opened", number, repo, head))).EnsureSuccessStatusCode();
        await App.WithDbAsync(async db =>
        {
            var project = await db.Projects.SingleAsync(p => p.Slug == slug);
            var jobs = await db.Jobs.Where(j => j.ProjectId == project.Id && j.PullRequest == number).OrderBy(j => j.ProfileId).ToListAsync();
            foreach (var job in jobs)
            {
                job.State = JobState.Succeeded;
                job.FinishedAt = DateTimeOffset.UtcNow;
            }
            var suite = new Suite { ProjectId = project.Id, Name = "Demo" };
            db.Suites.Add(suite);
            var measure = new Measure { Name = $"time-{slug}", Unit = "ns", Direction = Core.Results.Direction.LowerIsBetter };
            db.Measures.Add(measure);
            await db.SaveChangesAsync();
            foreach (var key in regressed.Append("Demo.Steady"))
            {
                var benchmark = new Benchmark { SuiteId = suite.Id, Key = key, Name = key };
                db.Benchmarks.Add(benchmark);
                await db.SaveChangesAsync();
                var bad = key != "Demo.Steady";
                db.Verdicts.Add(new Verdict
                {
                    JobId = jobs[0].Id, ProjectId = project.Id, PullRequest = number, BenchmarkId = benchmark.Id, MeasureId = measure.Id,
                    ProfileId = jobs[0].ProfileId, Outcome = bad ? Outcome.Regression : Outcome.NoChange, BaseMedian = 100,
                    HeadMedian = bad ? 125 : 100, Change = bad ? 0.25 : 0, ChangeCiLower = bad ? 0.2 : -0.01, ChangeCiUpper = bad ? 0.3 : 0.01,
                    PValue = bad ? 0.001 : 0.8, Threshold = 0.05, BaseSamples = 20, HeadSamples = 20, CreatedAt = DateTimeOffset.UtcNow,
                });
                if (bad)
                    db.Alerts.Add(new Alert
                    {
                        ProjectId = project.Id, Kind = AlertKind.Regression, State = AlertState.Active, BenchmarkId = benchmark.Id, MeasureId = measure.Id,
                        ProfileId = jobs[0].ProfileId, GroupKey = $"pr:{number}:{head}", FromCommit = PullRequestPayloads.BaseSha, ToCommit = head,
                        Summary = $"+25.0% of {key}", CreatedAt = DateTimeOffset.UtcNow, UpdatedAt = DateTimeOffset.UtcNow,
                    });
            }
            await db.SaveChangesAsync();
            return 0;
        });
        if (judgeAll) await JudgeOthersAsync(slug, number);
        await PublishAsync(await ProjectIdAsync(slug), number);
        return head;
    }

    /// <summary>The comparison of every job but the first profile's, as the service runs it: they have no runs, so
    /// nothing to compare on those profiles.</summary>
    public async Task JudgeOthersAsync(string slug, int number)
    {
        var jobs = (await JobsAsync(slug)).Where(j => j.PullRequest == number).OrderBy(j => j.ProfileId).Skip(1).ToList();
        foreach (var job in jobs)
        {
            await using var scope = App.Services.CreateAsyncScope();
            await scope.ServiceProvider.GetRequiredService<PerfService.PullRequests.PullRequestComparisonJob>().RunAsync(job.Id, CancellationToken.None);
        }
    }

    /// <summary>How many publish jobs were ever queued for the pull request, in any state (read from Hangfire's own
    /// table: its monitoring lists miss a job between being fetched and being marked processing).</summary>
    public async Task<int> PublishJobsQueuedAsync(long projectId, int pullRequest)
    {
        await using var command = App.Services.GetRequiredService<Npgsql.NpgsqlDataSource>().CreateCommand(
            "SELECT arguments::text FROM hangfire.job WHERE invocationdata::text LIKE '%PullRequestPublishJob%'");
        await using var reader = await command.ExecuteReaderAsync();
        var count = 0;
        while (await reader.ReadAsync())
        {
            // Hangfire stores the arguments as a JSON array of each argument's own JSON: ["5","2",null].
            var args = System.Text.Json.JsonSerializer.Deserialize<string?[]>(reader.GetString(0))!;
            if (args[0] == projectId.ToString(System.Globalization.CultureInfo.InvariantCulture)
                && args[1] == pullRequest.ToString(System.Globalization.CultureInfo.InvariantCulture)) count++;
        }
        return count;
    }

    public Task<long> ProjectIdAsync(string slug) => App.WithDbAsync(db => db.Projects.Where(p => p.Slug == slug).Select(p => p.Id).SingleAsync());

    public Task<List<AlertState>> AlertStatesAsync(string slug) =>
        App.WithDbAsync(db => db.Alerts.Where(a => db.Projects.Any(p => p.Id == a.ProjectId && p.Slug == slug)).OrderBy(a => a.Id).Select(a => a.State).ToListAsync());

    public Task<List<Job>> JobsAsync(string slug) =>
        App.WithDbAsync(db => db.Jobs.Where(j => db.Projects.Any(p => p.Id == j.ProjectId && p.Slug == slug)).OrderBy(j => j.Id).ToListAsync());

    /// <param name="conclusion">The run's conclusion when the button was pressed (payloads of two presses differ by what changed).</param>
    public static object CheckRun(string action, string repo, long id, string head, string sender, string? identifier = null, string conclusion = "failure") => new
    {
        action,
        check_run = new { id, head_sha = head, name = "PerfService / x", external_id = "x", status = "completed", conclusion, pull_requests = Array.Empty<object>() },
        requested_action = identifier is null ? null : new { identifier },
        repository = new { id = PullRequestPayloads.RepositoryId, full_name = repo },
        sender = new { login = sender, id = 9 },
    };

    public static object CheckSuite(string repo, string head, string sender) => new
    {
        action = "rerequested",
        check_suite = new { id = 77, head_sha = head, pull_requests = Array.Empty<object>() },
        repository = new { id = PullRequestPayloads.RepositoryId, full_name = repo },
        sender = new { login = sender, id = 9 },
    };

    public static object IssueComment(string repo, int number, long commentId, string body, string login) => new
    {
        action = "created",
        issue = new { number, title = "Make it faster", pull_request = new { url = $"https://api.github.com/repos/{repo}/pulls/{number}" } },
        comment = new { id = commentId, body, user = new { login, id = 9 } },
        repository = new { id = PullRequestPayloads.RepositoryId, full_name = repo },
        sender = new { login, id = 9 },
    };
}
