using OpenQA.Selenium;

namespace Dashboard.BrowserTests;

/// <summary>Every page gets the same header from js/layout.js, with its own entry marked (run and pr have none).</summary>
[Collection(SiteCollection.Name)]
public class NavigationTests(DashboardSite site)
{
    private static readonly string[] Entries = ["Projects", "Explorer", "Compare", "Alerts", "Agents", "Service", "API"];

    [Theory]
    [InlineData("/", "Projects")]
    [InlineData("/index.html", "Projects")]
    [InlineData("/explorer?project=demo", "Explorer")]
    [InlineData("/compare.html", "Compare")]
    [InlineData("/alerts.html", "Alerts")]
    [InlineData("/agents.html", "Agents")]
    [InlineData("/service.html", "Service")]
    [InlineData("/run.html?id={run}", null)]
    [InlineData("/pr.html?project=demo&pr=7", null)]
    public void Each_page_has_the_navigation_with_its_entry_marked(string path, string? current)
    {
        var b = site.Browser;
        if (current == "Service")
        {
            // The admin page with another test's read token would be refused (a 403 the browser logs); without a token it asks for one.
            b.Open(site.Url("/index.html"));
            ((OpenQA.Selenium.IJavaScriptExecutor)b.Driver).ExecuteScript("sessionStorage.removeItem('perf.token')");
        }
        b.Open(site.Url(path.Replace("{run}", site.Data.PrHeadRun.ToString(System.Globalization.CultureInfo.InvariantCulture))));
        var nav = b.WaitFor("header.top nav.main[aria-label='Main']");
        var links = nav.FindElements(By.TagName("a"));
        Assert.Equal(Entries, links.Select(a => a.Text));
        // The API entry leads to the API reference (Scalar, outside the dashboard's pages).
        Assert.Equal(Entries.Select(e => e switch { "Projects" => "index.html", "API" => "/api-reference/", _ => e.ToLowerInvariant() + ".html" }),
            links.Select(a => a.GetDomAttribute("href")));
        Assert.Equal(current is null ? [] : [current], links.Where(a => a.GetDomAttribute("aria-current") == "page").Select(a => a.Text));
        Assert.Equal("index.html", b.Driver.FindElement(By.CssSelector("header.top a.brand")).GetDomAttribute("href"));
        // The alerts test may have set a token in this tab already.
        Assert.Contains(b.WaitFor("header.top #token-slot #token-button").Text, new[] { "Set token", "Token set" });
        Assert.Empty(b.Errors());
    }
}
