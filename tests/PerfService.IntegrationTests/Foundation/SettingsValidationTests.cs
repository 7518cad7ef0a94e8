using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;

namespace PerfService.IntegrationTests.Foundation;

/// <summary>Every setting goes through a validated options class: a wrong value stops the service at start, saying which.</summary>
public class SettingsValidationTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    [Theory]
    [InlineData("Background:Workers", "0")]
    [InlineData("Background:AnalysisThreads", "0")]
    [InlineData("Background:YieldUntilWaitingRuns", "-1")]
    [InlineData("Background:AnalysisCachedSeries", "-1")]
    [InlineData("Schedule:BaselineCron", "daily")]
    [InlineData("Retention:ArtifactDays", "-1")]
    [InlineData("Dashboard:PublicUrl", "perf.example.com")]
    public async Task A_bad_value_stops_the_service_at_start(string key, string value)
    {
        var service = await FailedStart.RunAsync(app.Database.ConnectionString, new Dictionary<string, string> { [key] = value });
        FailedStart.AssertRefused(service, key.Split(':')[0], key.Split(':')[1]);
    }

    [Fact]
    public async Task Good_values_start_the_service()
    {
        await using var good = new WebApplicationFactory<Program>().WithWebHostBuilder(b => b.UseTestHost()
            .UseSetting("ConnectionStrings:Perf", app.Database.ConnectionString)
            .UseSetting("Background:Workers", "1").UseSetting("Background:AnalysisCachedSeries", "0")
            .UseSetting("Schedule:BaselineCron", "30 1 * * *")
            .UseSetting("Retention:ArtifactDays", "0").UseSetting("Dashboard:PublicUrl", "https://perf.example.com"));
        Assert.True((await good.CreateClient().GetAsync("/healthz")).IsSuccessStatusCode);
    }
}
