using Hangfire;
using Hangfire.Storage;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using PerfService.Background;

namespace PerfService.IntegrationTests.Foundation;

/// <summary>
/// The recurring jobs (lease sweep, retention, scheduled baselines): a service schedules them, and a service with
/// Schedule:Recurring off, as every test host is, schedules none and takes back an earlier start's schedule. A test
/// that runs a job itself must never meet the service's own run of it (the daily sample retention once took runs
/// from under SampleRetentionTests).
/// </summary>
public class RecurringScheduleTests(RecurringScheduleTests.App app) : IClassFixture<RecurringScheduleTests.App>
{
    /// <summary>A service with its schedule on, as in production.</summary>
    public sealed class App : PerfServiceApp
    {
        protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?> { ["Schedule:Recurring"] = "true" };
    }

    [Fact]
    public async Task A_service_schedules_every_recurring_job_and_the_test_host_takes_them_back()
    {
        var scheduled = await Eventually.WaitAsync(() => Task.FromResult(RecurringIds(app.Services)), ids => ids.Count == RecurringJobsRegistrar.Ids.Length);
        Assert.Equal(RecurringJobsRegistrar.Ids.Order(), scheduled.Order());

        // The test host's defaults, on the same database: nothing stays scheduled.
        await using var testHost = new WebApplicationFactory<Program>().WithWebHostBuilder(b => b.UseTestHost()
            .UseSetting("ConnectionStrings:Perf", app.Database.ConnectionString).UseSetting("Background:Roles", "web"));
        var left = await Eventually.WaitAsync(() => Task.FromResult(RecurringIds(testHost.Services)), ids => ids.Count == 0);
        Assert.Empty(left);
    }

    private static List<string> RecurringIds(IServiceProvider services)
    {
        using var connection = services.GetRequiredService<JobStorage>().GetConnection();
        return connection.GetRecurringJobs().Select(j => j.Id).ToList();
    }
}
