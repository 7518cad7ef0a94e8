using System.Net.Http.Json;
using PerfService.Core.Reports;
using PerfService.IntegrationTests.Dashboard;
using PerfService.Core.Comparison;

namespace Dashboard.BrowserTests;

/// <summary>Issue 16: per regression, the PR page charts main's recent history with the base and head rounds marked.</summary>
[Collection(SiteCollection.Name)]
public class PullRequestChartsTests(DashboardSite site)
{
    private sealed record Drawn(string Kind, int Count, double?[] Values);

    [Fact]
    public async Task Each_regression_has_a_history_chart_with_base_and_head_rounds_and_a_link_to_the_explorer()
    {
        var report = (await site.Http().GetFromJsonAsync<PullRequestReport>("/api/v1/projects/demo/pulls/7/report",
            new System.Text.Json.JsonSerializerOptions(System.Text.Json.JsonSerializerDefaults.Web) { Converters = { new System.Text.Json.Serialization.JsonStringEnumConverter() } }))!;
        var regressions = report.Rows.Where(r => r.Outcome == Outcome.Regression).OrderByDescending(r => Math.Abs(r.Change ?? 0)).ToList();
        Assert.Equal(2, regressions.Count);
        // The seed's main has 14 commits on the job's profile, and the head run belongs to the job.
        Assert.All(regressions, r => Assert.Equal(14, r.History.Count));
        Assert.All(regressions, r => Assert.Single(r.HeadRounds));
        Assert.Equal([.. regressions[0].History.Select(p => p.At)], regressions[0].History.Select(p => p.At).Order());

        var b = site.Browser;
        b.Open(site.Url("/pr.html?project=demo&pr=7"));
        b.WaitFor("#regression-charts canvas#history-1");
        b.WaitUntil(() => b.Json<bool>("return JSON.stringify(!!Chart.getChart(document.getElementById('history-1')))"), "the second chart drawn");
        for (var i = 0; i < regressions.Count; i++)
        {
            var drawn = b.Json<Drawn[]>($"return JSON.stringify(Chart.getChart(document.getElementById('history-{i}')).data.datasets.map(d => "
                + "({ kind: d.kind, count: d.data.length, values: d.data.map(p => typeof p === 'number' ? p : p.y) })))");
            Assert.Equal(["history", "base", "head"], drawn.Select(d => d.Kind));
            Assert.Equal(regressions[i].History.Select(p => (double?)p.Value), drawn[0].Values);
            Assert.Equal(regressions[i].BaseRounds.Select(v => (double?)v), drawn[1].Values);
            Assert.Equal(regressions[i].HeadRounds.Select(v => (double?)v), drawn[2].Values);
        }
        var link = b.WaitFor("#regression-charts article h3 a").GetAttribute("href")!;
        Assert.Contains($"explorer.html?project=demo&b=", link);
        Assert.Contains($"&base={HistorySeed.Sha(14)}&head={HistorySeed.Sha(20)}", link);
        Assert.Empty(b.Errors());
        b.Screenshot("pr-regression-charts");

        // The link opens the explorer on that benchmark, with base marked on main's line (head is the pull request's own commit).
        b.Open(new Uri(link));
        var canvas = b.WaitFor("canvas[id^='chart-']");
        var markers = b.Json<string[]>($"return JSON.stringify(Chart.getChart(document.getElementById('{canvas.GetAttribute("id")}')).options.plugins.perfMarkers.markers.map(m => m.label))");
        Assert.Contains(markers, m => m.StartsWith("base ", StringComparison.Ordinal));
        Assert.Contains("not on this branch", b.WaitFor(".commit-note").Text);
        Assert.Empty(b.Errors());
        b.Screenshot("explorer-from-pr");
    }
}
