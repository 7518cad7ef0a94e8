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

        var filter = b.WaitFor("#verdicts select[data-filter='outcome'] option[value='Regression']");
        Assert.Equal("regression", filter.Text);
        filter.Click();
        b.WaitUntil(() => Rows("#verdicts").Count == 2, "the outcome filter");
        Assert.All(Rows("#verdicts"), r => Assert.Equal("regression", r.FindElements(By.TagName("td"))[6].Text));
        // The interval is the figure the outcome comes from; the p-value is not shown.
        Assert.Equal(["Benchmark", "Measure", "Profile", "Base → head", "Change", "Change interval", "Outcome", "Margin"],
            b.Driver.FindElements(By.CssSelector("#verdicts thead th")).Select(th => th.Text));
        Assert.Equal("[+7.0%, +11.0%]", Rows("#verdicts").First().FindElements(By.TagName("td"))[5].Text);

        // The targets it judged are rows; the ones it did not measure are one line, with the list behind it.
        var targets = Rows("#targets").Select(r => (r.FindElements(By.TagName("td"))[0].Text, r.FindElements(By.TagName("td"))[1].Text)).ToList();
        Assert.Equal([("reads under 10 µs", "pass"), ("writes under 20 µs", "fail")], targets);
        var unmeasured = b.WaitFor("#unmeasured-targets");
        Assert.Equal($"{BrowserSeed.UnmeasuredTargets.Length} targets not measured: no result matches the benchmarks they name.",
            unmeasured.FindElement(By.TagName("summary")).Text);
        unmeasured.FindElement(By.TagName("summary")).Click();
        Assert.Equal(BrowserSeed.UnmeasuredTargets.Select(t => t.Name).Order(),
            unmeasured.FindElements(By.TagName("li")).Select(li => li.Text[..li.Text.IndexOf(" — ", StringComparison.Ordinal)]).Order());
        Assert.Contains("no time result matches 'BenchmarkSkipList*'", unmeasured.Text);
        Assert.Empty(b.Errors());
        b.Screenshot("run");
    }

    private IReadOnlyCollection<IWebElement> Rows(string table) => site.Browser.Driver.FindElements(By.CssSelector($"{table} tbody tr"));

    private static double ParsePercent(string text) => double.Parse(text.TrimEnd('%'), System.Globalization.CultureInfo.InvariantCulture);
}
