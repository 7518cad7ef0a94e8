using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using OpenQA.Selenium;
using PerfService.Alerts;
using PerfService.Auth;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Dashboard;

namespace Dashboard.BrowserTests;

[Collection(SiteCollection.Name)]
public class AlertGroupsPageTests(DashboardSite site)
{
    private const string Project = "grouped";

    /// <summary>
    /// A project of its own (the shared demo project's alert counts stay as other tests expect) whose slowdown between
    /// commits 2 and 3 raised change points on two benchmarks and two profiles, opened as analysis opens them.
    /// </summary>
    private async Task<(long Group, long[] Members, long[] Benchmarks)> SeedAsync()
    {
        await site.CreateProjectAsync(Project);
        var ingest = await site.ClientWithScopesAsync(Scopes.Ingest);
        foreach (var profile in new[] { "i7-4790k", "ryzen-9950x" })
            for (var commit = 1; commit <= 4; commit++)
                await HistorySeed.UploadGoAsync(ingest, Project, commit, profile, factor: commit >= 3 ? 1.3 : 1.0);
        var (projectId, benchmarks, measure, profiles) = await site.WithDbAsync(async db =>
        {
            var project = await db.Projects.SingleAsync(p => p.Slug == Project);
            var ids = await db.Benchmarks.Where(b => db.Suites.Any(s => s.Id == b.SuiteId && s.ProjectId == project.Id)).OrderBy(b => b.Key)
                .Select(b => b.Id).Take(2).ToArrayAsync();
            var time = await db.Measures.Where(m => m.Name == "time" && m.Unit == "ns").Select(m => m.Id).SingleAsync();
            var profileIds = await db.Profiles.Where(p => p.Name == "i7-4790k" || p.Name == "ryzen-9950x").Select(p => p.Id).ToArrayAsync();
            return (project.Id, ids, time, profileIds);
        });
        await using var scope = site.Services.CreateAsyncScope();
        var alerts = scope.ServiceProvider.GetRequiredService<AlertService>();
        var opened = new List<Alert>();
        var change = 0.22;
        foreach (var profile in profiles)
            foreach (var benchmark in benchmarks)
                opened.Add(await alerts.OpenAsync(new Alert
                {
                    ProjectId = projectId, Kind = AlertKind.ChangePoint, BenchmarkId = benchmark, MeasureId = measure, ProfileId = profile,
                    GroupKey = "range:2..3", FromCommit = HistorySeed.Sha(2), ToCommit = HistorySeed.Sha(3), Change = change += 0.04,
                    Summary = $"regression of +{change:P0} between {HistorySeed.Sha(2)[..10]} and {HistorySeed.Sha(3)[..10]}",
                }, "stable change point", CancellationToken.None));
        return (opened[0].AlertGroupId!.Value, opened.Select(a => a.Id).ToArray(), benchmarks);
    }

    [Fact]
    public async Task The_alerts_page_shows_one_row_per_group_expands_to_members_and_triages_the_group()
    {
        var (group, members, benchmarks) = await SeedAsync();
        var b = site.Browser;
        b.Open(site.Url($"/alerts.html?project={Project}"));
        b.Script("sessionStorage.clear()");
        b.Open(site.Url($"/alerts.html?project={Project}"));

        var row = b.WaitFor($"tr[data-group='{group}']");
        Assert.Single(b.Driver.FindElements(By.CssSelector("tr.group")));
        Assert.Contains("2 benchmarks · 2 profiles", row.Text);
        Assert.Contains("+38.0%", row.Text); // the largest change
        var explorer = row.FindElement(By.CssSelector("a.explorer-link")).GetAttribute("href")!;
        Assert.Contains($"b={string.Join("%2C", benchmarks)}", explorer);
        Assert.Contains("profile=i7-4790k", explorer);
        Assert.Contains("profile=ryzen-9950x", explorer);

        row.FindElement(By.CssSelector("button.toggle")).Click();
        b.WaitFor($"tr[data-members='{group}'] tr[data-alert='{members[3]}']");
        Assert.Equal(4, b.Driver.FindElements(By.CssSelector($"tr[data-members='{group}'] tr[data-alert]")).Count);
        b.Screenshot("alert-groups");

        row.FindElement(By.CssSelector("td.actions button[data-action='acknowledged']")).Click();
        b.WaitFor("#token-input").SendKeys(site.Data.ReadToken);
        b.WaitFor("#token-save").Click();
        Assert.Contains("all 4 alerts", b.WaitFor("#triage-dialog").Text);
        b.WaitFor("#triage-reason").SendKeys("Known: the resize policy; tracked in the issue.");
        b.WaitFor("#triage-issue").SendKeys("https://github.com/acme/grouped/issues/7");
        b.WaitFor("#triage-submit").Click();

        b.WaitFor($"tr[data-group='{group}']", r => r.FindElements(By.CssSelector(".badge")).FirstOrDefault()?.Text == "acknowledged");
        // The members shown below the group were read again: all acknowledged.
        b.WaitUntil(() => b.Driver.FindElements(By.CssSelector($"tr[data-members='{group}'] tr[data-alert] .badge")).Count(e => e.Text == "acknowledged") == 4,
            "the members to show Acknowledged");
        b.Screenshot("alert-groups-acknowledged");

        var stored = await site.WithDbAsync(db => db.Alerts.AsNoTracking().Where(a => members.Contains(a.Id)).ToListAsync());
        Assert.All(stored, a => Assert.Equal((AlertState.Acknowledged, "https://github.com/acme/grouped/issues/7"), (a.State, a.IssueUrl)));
        var events = await site.WithDbAsync(db => db.AlertEvents.AsNoTracking().Where(e => members.Contains(e.AlertId) && e.Actor == site.Data.ReadTokenName).ToListAsync());
        Assert.Equal(4, events.Count);
        Assert.All(events, e => Assert.Equal($"Known: the resize policy; tracked in the issue. (alert group {group})", e.Reason));
        Assert.Empty(b.Errors());

        // The group's own page, as the pull-request comment links it.
        b.Open(site.Url($"/alerts.html?group={group}"));
        b.WaitFor($"#group-detail tr[data-members='{group}'] tr[data-alert='{members[0]}']");
        b.Screenshot("alert-group-page");
        Assert.Empty(b.Errors());

        // All projects: the group is there with the demo project's ungrouped alerts listed below the groups.
        b.Open(site.Url("/alerts.html"));
        b.WaitFor($"tr[data-group='{group}']");
        b.WaitFor("#ungrouped-alerts tr[data-alert]");
        b.Screenshot("alert-groups-all-projects");
        Assert.Empty(b.Errors());
    }
}
