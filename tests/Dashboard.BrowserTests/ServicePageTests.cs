using Microsoft.Extensions.DependencyInjection;
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

    [Fact]
    public async Task A_parked_run_is_put_back_in_the_analysis_queue_with_its_Retry_button()
    {
        // A run whose analysis failed every attempt, as the consumer leaves it.
        var run = await site.WithDbAsync(db => db.Runs.OrderBy(r => r.Id).Select(r => r.Id).FirstAsync());
        await site.WithDbAsync(db => db.Database.ExecuteSqlInterpolatedAsync($"""
            INSERT INTO analysis_queue (run_id, queued_at, failed_batches, attempts, parked_at, error)
            VALUES ({run}, now(), 1, 3, now(), 'InvalidOperationException: parked by the test')
            ON CONFLICT (run_id) DO UPDATE SET parked_at = now(), attempts = 3, error = excluded.error
            """));
        // The consumer parks runs in the background; the page shows them at its next read, which the test need not
        // wait SnapshotSeconds for.
        site.Services.GetRequiredService<ServiceSnapshot>().Invalidate();
        var admin = await site.CreateTokenAsync(Scopes.Admin);
        var b = site.Browser;
        b.Open(site.Url("/service.html"));
        b.Script("sessionStorage.clear()");
        b.Open(site.Url("/service.html"));
        b.WaitFor("#service-token button").Click();
        b.WaitFor("#token-input").SendKeys(admin);
        b.WaitFor("#token-save").Click();

        Assert.Contains("parked by the test", b.WaitFor("#parked-table").Text);
        b.WaitFor($"button.retry-analysis[data-run='{run}']").Click();

        // Queued again (and analysed, or waiting to be): no longer parked, and the page says so.
        Assert.Contains("No run is parked", b.WaitFor("#parked-count", e => e.Text.Contains("No run is parked")).Text);
        Assert.Null(await site.WithDbAsync(db => db.AnalysisQueue.Where(q => q.RunId == run).Select(q => q.ParkedAt).FirstOrDefaultAsync()));
        Assert.Empty(b.Errors());
    }
}
