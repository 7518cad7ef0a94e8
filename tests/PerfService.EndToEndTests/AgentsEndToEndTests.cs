using System.Net.Http.Headers;
using System.Net.Http.Json;
using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Auth;
using PerfService.IntegrationTests.Infrastructure;

namespace PerfService.EndToEndTests;

/// <summary>
/// PostgreSQL, the service and two agents of different profiles as real processes; jobs for a local git repository with
/// small suites of all three harnesses; every result stored under the right profile.
/// </summary>
public class AgentsEndToEndTests : IAsyncLifetime
{
    private TestDatabase _db = null!;
    private readonly string _work = Path.Combine(Path.GetTempPath(), "perf-e2e-" + Guid.NewGuid().ToString("N")[..8]);

    public async Task InitializeAsync() => _db = await TestDatabase.CreateAsync();

    public async Task DisposeAsync()
    {
        await _db.DisposeAsync();
        try { Directory.Delete(_work, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
    }

    [Fact]
    public async Task Two_agents_of_different_profiles_run_all_three_harnesses_and_every_result_lands_under_its_profile()
    {
        var commit = SuiteRepository.Create(Path.Combine(_work, "repo"));
        Directory.CreateDirectory(_work);
        await using var service = new ServiceProcess(_db.ConnectionString, _work, new Dictionary<string, string?> { ["Jobs__LeaseSeconds"] = "120" });
        await service.StartAsync();
        var url = service.BaseAddress.ToString().TrimEnd('/');
        using var http = service.Anonymous(TimeSpan.FromSeconds(30));

        await using var context = PerfService.Migrations.DesignTimeDbContextFactory.Create(_db.ConnectionString);
        var admin = await TokenCommands.CreateAsync(context, "e2e-admin", [Scopes.Admin]);
        var agentToken = await TokenCommands.CreateAsync(context, "e2e-agents", [Scopes.Agent]);
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", admin);
        (await http.PostAsJsonAsync("/api/v1/projects", new { slug = "e2e", name = "e2e", repositoryUrl = Path.Combine(_work, "repo") })).EnsureSuccessStatusCode();
        (await http.PostAsJsonAsync("/api/v1/jobs", new { project = "e2e", commit, branch = "main", profiles = new[] { "i7-4790k", "m1-pro" }, quick = true }))
            .EnsureSuccessStatusCode();

        var agents = new List<ChildProcess>();
        try
        {
            foreach (var profile in new[] { "i7-4790k", "m1-pro" })
                agents.Add(ChildProcess.Start("dotnet",
                    [TestPaths.AgentDll, "agent", "--server", url, "--profile", profile, "--workdir", Path.Combine(_work, profile), "--name", $"e2e-{profile}",
                     "--host-lock", Path.Combine(_work, "host.lock"), "--wait-seconds", "5",
                     "--profiles", TestPaths.ProfilesFile],
                    _work, new Dictionary<string, string?> { ["PERF_TOKEN"] = agentToken }));

            List<JobDto> jobs = [];
            await WaitUntilAsync(async () =>
            {
                jobs = (await http.GetFromJsonAsync<List<JobDto>>("/api/v1/jobs?project=e2e"))!;
                if (agents.FirstOrDefault(a => a.HasExited) is { } dead) Assert.Fail("an agent exited early:\n" + dead.Output);
                return jobs.All(j => j.State is "Succeeded" or "Failed");
            }, TimeSpan.FromMinutes(20), () => $"jobs unfinished: {string.Join(", ", jobs.Select(j => $"{j.Profile}={j.State} {j.Progress}"))}\n" +
                                               string.Join("\n---\n", agents.Select(a => a.Output)));
            foreach (var job in jobs)
                Assert.True(job.State == "Succeeded", $"{job.Profile}: {job.Reason}\n{(await http.GetFromJsonAsync<JobDto>($"/api/v1/jobs/{job.Id}"))!.Log}");
        }
        finally
        {
            foreach (var a in agents) await a.DisposeAsync();
        }

        var stored = await context.Runs.AsNoTracking()
            .Select(r => new
            {
                Profile = context.Profiles.Where(p => p.Id == r.ProfileId).Select(p => p.Name).First(),
                Suite = context.Suites.Where(s => s.Id == r.SuiteId).Select(s => s.Name).First(),
                r.Format, r.ProfileMismatch,
                Results = context.Results.Count(x => x.RunId == r.Id && x.ProfileId == r.ProfileId),
                Samples = context.Results.Where(x => x.RunId == r.Id).Sum(x => x.SampleCount),
            }).ToListAsync();
        foreach (var profile in new[] { "i7-4790k", "m1-pro" })
            foreach (var (suite, format) in new[] { ("go-small", "gobench"), ("rust-small", "criterion"), ("dotnet-small", "bdn") })
            {
                var run = Assert.Single(stored, s => s.Profile == profile && s.Suite == suite);
                Assert.Equal(format, run.Format);
                Assert.True(run.Results > 0 && run.Samples > 0, $"{profile}/{suite} stored {run.Results} results, {run.Samples} samples");
                Assert.True(run.ProfileMismatch, "this host is neither an i7-4790K nor an M1 Pro, and says so");
            }
        Assert.Equal(6, stored.Count);
    }

    private static async Task WaitUntilAsync(Func<Task<bool>> done, TimeSpan timeout, Func<string> explain)
    {
        if (!await Eventually.TrueAsync(done, timeout, 500)) Assert.Fail(explain());
    }
}
