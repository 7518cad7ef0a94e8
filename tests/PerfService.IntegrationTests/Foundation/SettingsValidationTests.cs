using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.Options;

namespace PerfService.IntegrationTests.Foundation;

/// <summary>Every setting goes through a validated options class: a wrong value stops the service at start, saying which.</summary>
public class SettingsValidationTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    [Theory]
    [InlineData("Background:Workers", "0")]
    [InlineData("Background:AnalysisThreads", "0")]
    [InlineData("Schedule:BaselineCron", "daily")]
    [InlineData("Retention:ArtifactDays", "-1")]
    [InlineData("Dashboard:PublicUrl", "perf.example.com")]
    public async Task A_bad_value_stops_the_service_at_start(string key, string value)
    {
        await using var bad = new WebApplicationFactory<Program>().WithWebHostBuilder(b => b.UseTestHost()
            .UseSetting("ConnectionStrings:Perf", app.Database.ConnectionString)
            .UseSetting(key, value));
        var error = Assert.ThrowsAny<Exception>(() => bad.CreateClient());
        if (error.GetBaseException() is not OptionsValidationException invalid)
            throw new Xunit.Sdk.XunitException($"expected the settings' validation to stop the start, got: {error}");
        Assert.Contains(key.Split(':')[1], invalid.Message);
    }

    [Fact]
    public async Task Good_values_start_the_service()
    {
        await using var good = new WebApplicationFactory<Program>().WithWebHostBuilder(b => b.UseTestHost()
            .UseSetting("ConnectionStrings:Perf", app.Database.ConnectionString)
            .UseSetting("Background:Workers", "1").UseSetting("Schedule:BaselineCron", "30 1 * * *")
            .UseSetting("Retention:ArtifactDays", "0").UseSetting("Dashboard:PublicUrl", "https://perf.example.com"));
        Assert.True((await good.CreateClient().GetAsync("/healthz")).IsSuccessStatusCode);
    }
}
