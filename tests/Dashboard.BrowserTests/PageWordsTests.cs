using OpenQA.Selenium;
using PerfService.Core.Comparison;
using PerfService.Core.Targets;
using PerfService.Data.Entities;

namespace Dashboard.BrowserTests;

/// <summary>The service's enum values reach the pages as written in code ("NotMeasured"); every page shows words.</summary>
[Collection(SiteCollection.Name)]
public class PageWordsTests(DashboardSite site)
{
    /// <summary>Every member name the pages show: outcomes, target states, alert and job states and kinds.</summary>
    private static readonly string[] Names =
    [
        .. Enum.GetNames<Outcome>(), .. Enum.GetNames<TargetStatus>(), .. Enum.GetNames<AlertState>(), .. Enum.GetNames<AlertKind>(),
        .. Enum.GetNames<JobState>(), .. Enum.GetNames<JobKind>(),
    ];

    [Theory]
    [InlineData("/", "article.card[data-project='demo'] table.targets")]
    [InlineData("/run.html?id={run}", "#targets")]
    [InlineData("/pr.html?project=demo&pr=7", "#pr-runs")]
    [InlineData("/alerts.html?view=alerts", "tr[data-alert]")]
    [InlineData("/agents.html", "#queue tbody tr")]
    [InlineData("/explorer.html?project=demo&b={hax}&measure=time", "ul.markers li")]
    public void Enum_values_show_as_words(string path, string loaded)
    {
        var b = site.Browser;
        b.Open(site.Url(path.Replace("{run}", $"{site.Data.PrHeadRun}").Replace("{hax}", $"{site.Data.HaxReads}")));
        b.WaitFor(loaded);
        foreach (var details in b.Driver.FindElements(By.CssSelector("details"))) b.Script("arguments[0].open = true", details);
        var badges = b.Driver.FindElements(By.CssSelector(".badge")).Select(e => e.Text).ToList();
        Assert.DoesNotContain(badges, Names.Contains);
        // Single-word names are fine in a sentence ("Regressions in context"); a name of two words never reads as one.
        var text = b.Driver.FindElement(By.TagName("main")).Text;
        Assert.All(Names.Where(n => n.Skip(1).Any(char.IsUpper)), name => Assert.DoesNotContain(name, text, StringComparison.Ordinal));
        Assert.Empty(b.Errors());
    }
}
