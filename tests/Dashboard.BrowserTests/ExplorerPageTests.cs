using System.Net.Http.Json;
using OpenQA.Selenium;
using PerfService.Dashboard;

namespace Dashboard.BrowserTests;

[Collection(SiteCollection.Name)]
public class ExplorerPageTests(DashboardSite site)
{
    private sealed record ChartLine(string Profile, double[] Xs, double[] Ys, string[] Commits, long[] RunIds, double?[] Lower, double?[] Upper);

    [Fact]
    public async Task The_trend_chart_draws_exactly_the_stored_points_with_bands_and_markers()
    {
        var b = site.Browser;
        var id = site.Data.HaxReads;
        b.Open(site.Url($"/explorer.html?project=demo&b={id}&measure=time"));
        b.WaitFor($"#chart-{id}");
        var lines = ChartLines($"chart-{id}");
        // The page reads the series as columns; the default shape, one object per point, is the reference here.
        var api = (await site.Http().GetFromJsonAsync<SeriesDto>($"/api/v1/projects/demo/series?benchmark={id}&measure=time&limit=10000"))!;

        Assert.Equal(api.Lines.Select(l => l.Profile), lines.Select(l => l.Profile));
        foreach (var line in api.Lines)
        {
            var drawn = lines.Single(l => l.Profile == line.Profile);
            Assert.Equal(14, drawn.Ys.Length);
            Assert.Equal(line.Points.Select(p => p.Value!.Value), drawn.Ys);
            Assert.Equal(line.Points.Select(p => p.Commit), drawn.Commits);
            Assert.Equal(line.Points.Select(p => p.RunId), drawn.RunIds);
            Assert.Equal(line.Points.Select(p => p.CiLower), drawn.Lower);
            Assert.Equal(line.Points.Select(p => p.CiUpper), drawn.Upper);
            Assert.Equal(line.Points.Select(p => (double)p.SeriesAt.ToUnixTimeMilliseconds()), drawn.Xs);
        }
        var markers = b.Json<long[]>($"return JSON.stringify(Chart.getChart(document.getElementById('chart-{id}')).options.plugins.perfMarkers.markers.map(m => m.alertId))");
        Assert.Equal(api.Markers.Select(m => m.AlertId).Order(), markers.Order());
        Assert.Contains(site.Data.ChangePointAlert, markers);
        Assert.Empty(b.Errors());
        b.Screenshot("explorer");
    }

    [Fact]
    public void Clicking_a_point_opens_its_run()
    {
        var b = site.Browser;
        var id = site.Data.HaxReads;
        b.Open(site.Url($"/explorer.html?project=demo&b={id}&profile=i7-4790k"));
        var canvas = b.WaitFor($"#chart-{id}");
        var target = b.Json<double[]>($$"""
            const chart = Chart.getChart(document.getElementById('chart-{{id}}'));
            const i = chart.data.datasets.findIndex(d => d.kind === 'line');
            const point = chart.getDatasetMeta(i).data[5];
            return JSON.stringify([point.x, point.y, chart.data.datasets[i].data[5].runId]);
            """);
        b.ClickAt(canvas, target[0], target[1]);
        b.WaitUntil(() => b.Driver.Url.Contains($"run.html?id={(long)target[2]}"), "navigation to the run page");
        b.WaitFor("#results table");
    }

    [Fact]
    public void Drag_zoom_is_kept_in_the_url_and_restored_from_it()
    {
        var b = site.Browser;
        var id = site.Data.HaxReads;
        b.Open(site.Url($"/explorer.html?project=demo&b={id}"));
        var canvas = b.WaitFor($"#chart-{id}");
        var area = b.Json<double[]>($"const a = Chart.getChart(document.getElementById('chart-{id}')).chartArea; return JSON.stringify([a.left, a.right, a.top, a.bottom])");
        var (y, width) = ((area[2] + area[3]) / 2, area[1] - area[0]);
        new OpenQA.Selenium.Interactions.Actions(b.Driver)
            .MoveToElement(canvas, (int)(area[0] + width * 0.3 - canvas.Size.Width / 2.0), (int)(y - canvas.Size.Height / 2.0))
            .ClickAndHold().MoveByOffset((int)(width * 0.15), 0).MoveByOffset((int)(width * 0.15), 0).Release().Perform();
        b.WaitUntil(() => b.Driver.Url.Contains("zmin=") && b.Driver.Url.Contains("zmax="), "the zoom range in the URL");
        var zoomed = XRange(id);

        b.Open(new Uri(b.Driver.Url));
        b.WaitFor($"#chart-{id}");
        var restored = XRange(id);
        Assert.Equal(zoomed[0], restored[0], 0);
        Assert.Equal(zoomed[1], restored[1], 0);
        var points = ChartLines($"chart-{id}")[0];
        Assert.True(restored[1] - restored[0] < 0.5 * (13 * 86_400_000.0), "the zoomed range is well inside the 13 days of history");

        b.WaitFor("#reset-zoom").Click();
        b.WaitUntil(() => !b.Driver.Url.Contains("zmin="), "reset to drop the zoom from the URL");
        Assert.Empty(b.Errors());
        Assert.Equal(14, points.Ys.Length);
    }

    private double[] XRange(long id) =>
        site.Browser.Json<double[]>($"const s = Chart.getChart(document.getElementById('chart-{id}')).scales.x; return JSON.stringify([s.min, s.max])");

    [Fact]
    public void Search_selection_and_normalised_view_live_in_the_url()
    {
        var b = site.Browser;
        b.Open(site.Url("/explorer.html?project=demo"));
        var search = b.WaitFor("#search");
        search.SendKeys("HaxMap");
        b.WaitUntil(() => b.Driver.FindElements(By.CssSelector("#bench-list input[type=checkbox]")).Count == 2, "the list to narrow to the two HaxMap benchmarks");
        foreach (var box in b.Driver.FindElements(By.CssSelector("#bench-list input[type=checkbox]"))) box.Click();
        b.WaitUntil(() => b.Driver.FindElements(By.CssSelector(".chart-card canvas")).Count == 2, "two charts");
        b.WaitFor("#norm option[value='first']").Click();
        b.WaitFor("#chart-combined");
        var url = new Uri(b.Driver.Url);
        Assert.Contains("q=HaxMap", url.Query);
        Assert.Contains("norm=first", url.Query);
        Assert.Matches(@"b=\d+%2C\d+|b=\d+,\d+", url.Query);

        // The same URL in a fresh page shows the same view: 2 benchmarks × 2 profiles, each starting at 0 %.
        b.Open(url);
        b.WaitFor("#chart-combined");
        var lines = ChartLines("chart-combined");
        Assert.Equal(4, lines.Count);
        Assert.All(lines, l => Assert.Equal(0, l.Ys[0], 9));
        Assert.Empty(b.Errors());
        b.Screenshot("explorer-normalised");
    }

    [Fact]
    public void Markup_in_a_benchmark_name_is_shown_as_text_and_never_runs()
    {
        var b = site.Browser;
        b.Open(site.Url($"/explorer.html?project=demo&q=script&b={site.Data.XssBenchmark}"));
        var title = b.WaitFor($".chart-card[data-benchmark='{site.Data.XssBenchmark}'] h3");
        b.WaitFor($"#chart-{site.Data.XssBenchmark}");
        Assert.StartsWith(site.Data.XssName, title.Text);
        Assert.Contains(b.Driver.FindElements(By.CssSelector("#bench-list label")), l => l.Text.Contains("size=<b>big</b>"));
        Assert.Null(b.Script("return window.__pwned === undefined ? null : window.__pwned"));
        Assert.Empty(b.Driver.FindElements(By.CssSelector("main img, main script, main b")));
        b.Screenshot("explorer-markup-name");
    }

    private List<ChartLine> ChartLines(string canvasId) => site.Browser.Json<List<ChartLine>>($$"""
        return JSON.stringify(Chart.getChart(document.getElementById('{{canvasId}}')).data.datasets.filter(d => d.kind === 'line').map(d => {
            const band = (kind) => Chart.getChart(document.getElementById('{{canvasId}}')).data.datasets.find(x => x.kind === kind && x.series === d.series).data.map(p => p.y);
            return { profile: d.profile, xs: d.data.map(p => p.x), ys: d.data.map(p => p.y), commits: d.data.map(p => p.commit), runIds: d.data.map(p => p.runId),
                     lower: band('band-lower'), upper: band('band-upper') };
        }));
        """);
}
