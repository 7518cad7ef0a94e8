using PerfService.Hosting.Telemetry;

namespace Dashboard.BrowserTests;

/// <summary>The Service page gives an admin without Prometheus the analysis backlog and GitHub publication outcomes
/// next to the background queues, jobs and agents.</summary>
[Collection(SiteCollection.Name)]
public class ServicePageTests(DashboardSite site)
{
    [Fact]
    public async Task An_admin_sees_the_analysis_backlog_and_how_publications_to_GitHub_went()
    {
        // The same counters the publish job moves (the page reads this process's tally).
        PerfTelemetry.Published("published");
        PerfTelemetry.RateLimited(TimeSpan.FromSeconds(30));
        var admin = await site.CreateTokenAsync(Scopes.Admin);
        var b = site.Browser;
        b.Open(site.Url("/service.html"));
        b.Script("sessionStorage.clear()");
        b.Open(site.Url("/service.html"));
        b.WaitFor("#service-token button").Click();
        b.WaitFor("#token-input").SendKeys(admin);
        b.WaitFor("#token-save").Click();

        var analysis = b.WaitFor("#analysis-table");
        Assert.Contains("Runs waiting for analysis", analysis.Text);
        Assert.Contains("No run is parked", b.WaitFor("#parked-count").Text);
        var publications = b.WaitFor("#publish-table");
        Assert.Contains("published", publications.Text);
        Assert.Contains("rate_limited", publications.Text);
        Assert.Matches(@"Rate-limit waits: \d+", b.WaitFor("#rate-limits").Text);
        Assert.Empty(b.Errors());
        b.Screenshot("service");
    }
}
