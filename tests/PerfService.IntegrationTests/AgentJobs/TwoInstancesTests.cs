using System.Collections.Concurrent;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using PerfService.AgentJobs;

namespace PerfService.IntegrationTests.AgentJobs;

/// <summary>Two service instances on one database, agents claiming through both: every job runs exactly once.</summary>
public class TwoInstancesTests : IAsyncLifetime
{
    private readonly PerfServiceApp first = new();
    private WebApplicationFactory<Program> second = null!;

    public async Task InitializeAsync()
    {
        await first.InitializeAsync();
        second = new WebApplicationFactory<Program>().WithWebHostBuilder(b =>
        {
            b.UseTestHost();
            b.UseSetting("ConnectionStrings:Perf", first.Database.ConnectionString);
        });
    }

    public async Task DisposeAsync()
    {
        await second.DisposeAsync();
        await ((IAsyncLifetime)first).DisposeAsync();
    }

    [Fact]
    public async Task Agents_claiming_from_two_instances_never_run_a_job_twice()
    {
        await first.CreateProjectAsync("two-instances");
        var admin = await first.ClientWithScopesAsync(Scopes.Admin);
        for (var i = 0; i < 40; i++)
            (await admin.PostAsJsonAsync("/api/v1/jobs", new { project = "two-instances", commit = $"abcd{i:0000}", profiles = new[] { "i7-4790k", "m1-pro" } }))
                .EnsureSuccessStatusCode();

        var token = await first.CreateTokenAsync(Scopes.Agent);
        var agents = new List<AgentClient>();
        for (var i = 0; i < 6; i++)
        {
            // Alternate instances; both tokens and agents live in the one database, so either instance knows them.
            var http = (i % 2 == 0 ? first.CreateClient() : second.CreateClient());
            http.DefaultRequestHeaders.Authorization = new("Bearer", token);
            agents.Add(await AgentClient.RegisterAsync(first, $"two-{i}", i < 3 ? "i7-4790k" : "m1-pro", http));
        }

        var runs = new ConcurrentBag<long>();
        await Task.WhenAll(agents.Select(async agent =>
        {
            while (await agent.ClaimAsync() is { } job)
            {
                runs.Add(job.JobId);
                (await agent.HeartbeatAsync(job.JobId)).EnsureSuccessStatusCode();
                (await agent.CompleteAsync(job.JobId)).EnsureSuccessStatusCode();
            }
        }));

        Assert.Equal(80, runs.Count);
        Assert.Equal(80, runs.Distinct().Count());
        var jobs = (await admin.GetFromJsonAsync<List<JobDto>>("/api/v1/jobs?project=two-instances&limit=1000"))!;
        Assert.All(jobs, j => Assert.Equal(("Succeeded", 1), (j.State, j.Attempts)));
    }
}
