using Microsoft.Extensions.DependencyInjection;
using PerfService.AgentJobs;
using PerfService.Data.Entities;

namespace PerfService.IntegrationTests.AgentJobs;

/// <summary>
/// The recurring baseline against a real git repository on disk: the head of the default branch is queued once on
/// every profile; an unreachable repository is skipped without stopping the others.
/// </summary>
public sealed class ScheduledBaselineTests : OwnServiceTests, IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("perf-baseline-").FullName;

    [Fact]
    public async Task The_default_branch_head_is_queued_once_on_every_profile_and_a_dead_remote_is_skipped()
    {
        var repo = Path.Combine(_dir, "repo");
        Git.Init(repo, "trunk");
        var first = Git.Commit(repo, "one", ("file.txt", "one"));
        await app.CreateProjectAsync("sched-live", repositoryUrl: repo);
        await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == "sched-live").ExecuteUpdateAsync(p => p.SetProperty(x => x.DefaultBranch, "trunk")));
        await app.CreateProjectAsync("sched-dead", repositoryUrl: Path.Combine(_dir, "no-such-repo"));

        await RunJobAsync();
        var jobs = await BaselinesAsync();
        Assert.Equal(await app.WithDbAsync(db => db.Profiles.CountAsync()), jobs.Count);
        Assert.All(jobs, j => Assert.Equal((first, "trunk", JobState.Queued), (j.Commit, j.Branch, j.State)));
        Assert.Equal(jobs.Count, jobs.Select(j => j.ProfileId).Distinct().Count());

        await RunJobAsync(); // nothing new on trunk: nothing queued again
        Assert.Equal(jobs.Count, (await BaselinesAsync()).Count);

        var second = Git.Commit(repo, "two", ("file.txt", "two"));
        await RunJobAsync();
        var after = await BaselinesAsync();
        Assert.Equal(2 * jobs.Count, after.Count);
        Assert.Equal(jobs.Count, after.Count(j => j.Commit == second));
    }

    private async Task RunJobAsync()
    {
        await using var scope = app.Services.CreateAsyncScope();
        await scope.ServiceProvider.GetRequiredService<ScheduledBaselineJob>().RunAsync(CancellationToken.None);
    }

    private Task<List<Job>> BaselinesAsync() =>
        app.WithDbAsync(db => db.Jobs.AsNoTracking().Where(j => j.Kind == JobKind.Baseline).ToListAsync());

    public void Dispose() => Directory.Delete(_dir, recursive: true);
}
