using System.Net.Http.Json;
using OpenQA.Selenium;
using PerfService.Dashboard;
using PerfService.IntegrationTests.Dashboard;

namespace Dashboard.BrowserTests;

[Collection(SiteCollection.Name)]
public class OtherPagesTests(DashboardSite site)
{
    [Fact]
    public void The_overview_lists_latest_runs_open_alerts_and_failed_targets()
    {
        var b = site.Browser;
        b.Open(site.Url("/"));
        var card = b.WaitFor("article.card[data-project='demo']", c => c.FindElements(By.CssSelector("table tbody tr")).Count > 0);
        var profiles = card.FindElements(By.CssSelector("table tbody tr td:first-child")).Select(td => td.Text).ToList();
        Assert.Contains("i7-4790k", profiles);
        Assert.Contains("ryzen-9950x", profiles);
        Assert.Contains("writes under 20 µs", card.Text);
        Assert.Matches(@"\d+\s*open alerts", card.Text);
        Assert.Empty(b.Errors());
        b.Screenshot("overview");
    }

    [Fact]
    public void The_overview_shows_every_target_with_its_latest_state_per_profile_on_main()
    {
        var b = site.Browser;
        b.Open(site.Url("/"));
        var table = b.WaitFor("article.card[data-project='demo'] table.targets");
        var headers = table.FindElements(By.CssSelector("thead th")).Select(th => th.Text).ToList();
        Assert.Equal(["Suite", "Target", "i7-4790k", "ryzen-9950x"], headers);
        string[] Cells(string target) => table.FindElements(By.CssSelector($"tbody tr[data-target='{target}'] td")).Select(td => td.Text).ToArray();
        var lookups = Cells("lookups under 1 µs");
        Assert.Equal("maps", lookups[0]);
        Assert.StartsWith("pass", lookups[2]);
        Assert.StartsWith("fail", lookups[3]);
        // A target no profile measured is no row of its own: one line under the table says how many and why.
        Assert.Empty(table.FindElements(By.CssSelector($"tbody tr[data-target='{BrowserSeed.StartupTarget.Name}']")));
        var unmeasured = b.WaitFor("article.card[data-project='demo'] details.unmeasured");
        Assert.Equal("1 target not measured: no result matches the benchmark it names.", unmeasured.FindElement(By.TagName("summary")).Text);
        unmeasured.FindElement(By.TagName("summary")).Click();
        Assert.StartsWith($"{BrowserSeed.StartupTarget.Name} — no time result matches 'BenchmarkStartup*'", unmeasured.FindElement(By.TagName("li")).Text);
        // A pull request's run does not change main's targets: the PR head's targets are not in this table.
        Assert.Empty(table.FindElements(By.CssSelector("tbody tr[data-target='writes under 20 µs']")));
        Assert.Empty(b.Errors());
        b.Screenshot("overview-targets");
    }

    [Fact]
    public async Task Compare_shows_every_benchmark_of_the_two_commits()
    {
        var b = site.Browser;
        var (baseSha, headSha) = (HistorySeed.Sha(1), HistorySeed.Sha(14));
        b.Open(site.Url($"/compare.html?project=demo&base={baseSha}&head={headSha}&profile=i7-4790k"));
        b.WaitFor("#compare-table tbody tr");
        var api = (await site.Http().GetFromJsonAsync<CompareDto>($"/api/v1/projects/demo/compare?base={baseSha}&head={headSha}&profile=i7-4790k"))!;
        Assert.Equal(api.Rows.Count, b.Driver.FindElements(By.CssSelector("#compare-table tbody tr")).Count);
        Assert.Empty(b.Errors());
        b.Screenshot("compare");
    }

    [Fact]
    public void Agents_show_who_is_online_the_queue_and_failure_logs()
    {
        var b = site.Browser;
        b.Open(site.Url("/agents.html"));
        var agents = b.WaitFor("#agent-table");
        var rows = agents.FindElements(By.CssSelector("tbody tr")).Select(r => r.Text).ToList();
        Assert.Contains(rows, r => r.Contains("bench-01") && r.Contains("online"));
        Assert.Contains(rows, r => r.Contains("bench-02") && r.Contains("offline"));
        Assert.Equal(2, b.Driver.FindElements(By.CssSelector("#queue tbody tr")).Count);
        Assert.Contains("pull request (PR #8)", b.WaitFor("#queue").Text);
        Assert.Contains("suite maps, round 2/5", b.WaitFor("#running").Text);
        b.WaitFor("#failures button").Click();
        var log = b.WaitFor("#failures pre.log", p => p.Displayed && p.Text.Length > 0);
        Assert.Contains("panic: boom <b>not markup</b>", log.Text);
        Assert.Empty(b.Errors());
        b.Screenshot("agents");
    }

    [Fact]
    public void The_api_reference_renders_the_openapi_document()
    {
        // Scalar (served by the service from its package) renders /openapi/v1.json with examples and try-it.
        var b = site.Browser;
        b.Open(site.Url("/api-reference/"));
        try
        {
            b.WaitUntil(() => b.Driver.FindElement(By.TagName("body")).Text.Contains("Upload a run's results", StringComparison.Ordinal),
                "the operation summaries to render", seconds: 60);
        }
        catch (TimeoutException e)
        {
            b.Screenshot("api-reference-failed");
            throw new TimeoutException(e.Message + "; console: " + string.Join(" | ", b.Driver.Manage().Logs.GetLog(OpenQA.Selenium.LogType.Browser).Select(l => l.Message))
                + "; text: " + b.Driver.FindElement(By.TagName("body")).Text[..Math.Min(500, b.Driver.FindElement(By.TagName("body")).Text.Length)], e);
        }
        var text = b.Driver.FindElement(By.TagName("body")).Text;
        Assert.Contains("PerfService API", text);
        Assert.Contains("Get a benchmark's history on a branch, one line per profile", text);
        Assert.Empty(b.Errors());
        b.Screenshot("api-reference");
    }
}
