using PerfService.Auth;
using PerfService.Core.Contracts;
using PerfService.IntegrationTests.Dashboard;

namespace Dashboard.BrowserTests;

/// <summary>A profile's disturbance over time: a chart of what else used its machines, the disturbed runs marked, linked
/// from each run's page.</summary>
[Collection(SiteCollection.Name)]
public class DisturbancePageTests(DashboardSite site)
{
    [Fact]
    public async Task A_profiles_disturbance_is_a_chart_over_its_runs_with_the_disturbed_ones_marked_and_a_run_links_to_it()
    {
        const string slug = "noisy-neighbour";
        using var admin = site.Http();
        admin.DefaultRequestHeaders.Authorization = new("Bearer", await site.CreateTokenAsync(Scopes.Admin));
        (await admin.PostAsync("/api/v1/projects", System.Net.Http.Json.JsonContent.Create(new { slug, name = "Noisy neighbour", isPublic = true }))).EnsureSuccessStatusCode();
        using var ingest = site.Http();
        ingest.DefaultRequestHeaders.Authorization = new("Bearer", await site.CreateTokenAsync(Scopes.Ingest));
        var quiet = new Disturbance(false, 1, 3, 2, 0.01, 0, 0, 0.3);
        var busy = new Disturbance(true, 2, 3, 2, 0.425, 0.02, 1.5, 2.1);
        var runs = new List<long>();
        foreach (var (commit, d) in new[] { (1, quiet), (2, quiet), (3, busy), (4, quiet), (5, busy) })
            runs.Add(await HistorySeed.UploadAsync(ingest, new RunMetadata
            {
                Project = slug, Commit = HistorySeed.Sha(commit), CommittedAt = HistorySeed.Epoch.AddDays(commit), Branch = "main",
                Profile = "m1-pro", Suite = "maps", Format = "gobench", Disturbance = d,
            }, HistorySeed.GoFile, HistorySeed.ScaledGo(1)));

        var b = site.Browser;
        b.Open(site.Url($"/disturbance.html?project={slug}&profile=m1-pro"));
        // Both disturbed runs came after quiet ones: each was the exception on its profile, so both stay out of the series.
        Assert.Equal("2 of 5 measured runs disturbed; 2 left out of change points and baselines.", b.WaitFor("#disturbance-summary").Text);
        b.WaitUntil(() => b.Script("return document.getElementById('disturbance-chart').chart?.data.datasets.length") is 2L, "the chart");
        Assert.Equal([1.0, 1.0, 42.5, 1.0, 42.5],
            b.Json<double[]>("return JSON.stringify(document.getElementById('disturbance-chart').chart.data.datasets[0].data)"));
        Assert.Equal([2L, 2L, 5L, 2L, 5L],
            b.Json<long[]>("return JSON.stringify(document.getElementById('disturbance-chart').chart.data.datasets[0].pointRadius)"));
        b.Screenshot("disturbance");

        b.Open(site.Url($"/run.html?id={runs[2]}"));
        var fact = b.WaitFor("#run-disturbance");
        Assert.StartsWith("disturbed: other processes used 85% of a core; 2 attempts, the least disturbed posted · left out of change points and baselines", fact.Text);
        fact.FindElement(OpenQA.Selenium.By.LinkText("m1-pro over time")).Click();
        b.WaitFor("#disturbance-summary");
        Assert.Empty(b.Errors());
    }
}
