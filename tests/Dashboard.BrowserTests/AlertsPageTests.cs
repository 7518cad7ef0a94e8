using Microsoft.EntityFrameworkCore;
using OpenQA.Selenium;
using PerfService.Data.Entities;

namespace Dashboard.BrowserTests;

[Collection(SiteCollection.Name)]
public class AlertsPageTests(DashboardSite site)
{
    [Fact]
    public async Task An_alert_is_acknowledged_from_the_page_with_a_reason_and_an_issue_link()
    {
        var b = site.Browser;
        var id = site.Data.TriageAlert;
        b.Open(site.Url("/alerts.html?project=demo"));
        b.Script("sessionStorage.clear()");
        b.Open(site.Url("/alerts.html?project=demo"));
        // A change point's row says how many results its alert waited for.
        Assert.Contains("found 2 results later", b.WaitFor($"tr[data-alert='{site.Data.ChangePointAlert}']").Text);
        b.WaitFor($"tr[data-alert='{id}'] button[data-action='acknowledged']").Click();

        // No token yet: the page asks for one first, then opens the triage form.
        b.WaitFor("#token-input").SendKeys(site.Data.ReadToken);
        b.WaitFor("#token-save").Click();
        b.WaitFor("#triage-reason").SendKeys("Known: the new hash function; fix tracked in the issue.");
        b.WaitFor("#triage-issue").SendKeys("https://github.com/acme/demo/issues/42");
        b.Screenshot("alerts-triage-dialog");
        b.WaitFor("#triage-submit").Click();

        var row = b.WaitFor($"tr[data-alert='{id}']", r => r.FindElements(By.CssSelector(".badge")).FirstOrDefault()?.Text == "acknowledged");
        Assert.Contains("issue", row.Text);
        Assert.Equal("https://github.com/acme/demo/issues/42", row.FindElement(By.LinkText("issue")).GetAttribute("href"));

        var events = await site.WithDbAsync(db => db.AlertEvents.AsNoTracking().Where(e => e.AlertId == id).ToListAsync());
        var e = Assert.Single(events);
        Assert.Equal((AlertState.Active, AlertState.Acknowledged, site.Data.ReadTokenName, "Known: the new hash function; fix tracked in the issue."),
            (e.FromState, e.ToState, e.Actor, e.Reason));
        Assert.Equal(AlertState.Acknowledged, await site.WithDbAsync(db => db.Alerts.Where(a => a.Id == id).Select(a => a.State).SingleAsync()));
        Assert.Empty(b.Errors());
        b.Screenshot("alerts");

        // The alert's own page lists the change.
        b.Open(site.Url($"/alerts.html?id={id}"));
        Assert.Contains(site.Data.ReadTokenName, b.WaitFor("ol.events li").Text);
        b.Screenshot("alert-history");
    }
}
