using OpenQA.Selenium;

namespace Dashboard.BrowserTests;

[Collection(SiteCollection.Name)]
public class RunPageTests(DashboardSite site)
{
    [Fact]
    public void The_verdict_table_sorts_and_filters_and_targets_show_pass_and_fail()
    {
        var b = site.Browser;
        b.Open(site.Url($"/run.html?id={site.Data.PrHeadRun}"));
        b.WaitFor("#verdicts tbody tr");
        Assert.Equal(site.Data.Verdicts, Rows("#verdicts").Count);

        b.WaitFor("#verdicts th[data-key='change']").Click();
        var changes = Rows("#verdicts").Select(r => ParsePercent(r.FindElements(By.TagName("td"))[4].Text)).ToList();
        Assert.Equal(changes.Order(), changes);
        Assert.Equal(-12.0, changes[0]);
        Assert.Contains("vsort=change", b.Driver.Url);

        b.WaitFor("#verdicts select[data-filter='outcome'] option[value='Regression']").Click();
        b.WaitUntil(() => Rows("#verdicts").Count == 2, "the outcome filter");
        Assert.All(Rows("#verdicts"), r => Assert.Equal("Regression", r.FindElements(By.TagName("td"))[7].Text));

        var targets = Rows("#targets").Select(r => (r.FindElements(By.TagName("td"))[0].Text, r.FindElements(By.TagName("td"))[1].Text)).ToList();
        Assert.Equal([("reads under 10 µs", "Pass"), ("writes under 20 µs", "Fail")], targets);
        Assert.Empty(b.Errors());
        b.Screenshot("run");
    }

    [Fact]
    public void The_pull_request_page_shows_its_latest_head_run()
    {
        var b = site.Browser;
        b.Open(site.Url("/pr.html?project=demo&pr=7"));
        b.WaitFor("#verdicts tbody tr");
        Assert.Contains($"#{site.Data.PrHeadRun}", b.WaitFor("#run > h2").Text);
        Assert.Equal(site.Data.Verdicts, Rows("#verdicts").Count);
        Assert.Empty(b.Errors());
        b.Screenshot("pull-request");
    }

    private IReadOnlyCollection<IWebElement> Rows(string table) => site.Browser.Driver.FindElements(By.CssSelector($"{table} tbody tr"));

    private static double ParsePercent(string text) => double.Parse(text.TrimEnd('%'), System.Globalization.CultureInfo.InvariantCulture);
}
