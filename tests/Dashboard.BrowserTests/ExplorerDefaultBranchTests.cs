using Microsoft.EntityFrameworkCore;
using PerfService.Auth;
using PerfService.IntegrationTests.Dashboard;

namespace Dashboard.BrowserTests;

/// <summary>Issue 16: the explorer opens on the project's default branch, and a default branch without runs is an empty
/// state, not an error.</summary>
[Collection(SiteCollection.Name)]
public class ExplorerDefaultBranchTests(DashboardSite site)
{
    [Fact]
    public async Task A_project_whose_runs_are_all_on_other_branches_opens_on_main_with_an_empty_state()
    {
        const string slug = "only-branches";
        using var admin = site.Http();
        admin.DefaultRequestHeaders.Authorization = new("Bearer", await site.CreateTokenAsync(Scopes.Admin));
        (await admin.PostAsync("/api/v1/projects", System.Net.Http.Json.JsonContent.Create(new { slug, name = "Only branches", isPublic = true }))).EnsureSuccessStatusCode();
        using var ingest = site.Http();
        ingest.DefaultRequestHeaders.Authorization = new("Bearer", await site.CreateTokenAsync(Scopes.Ingest));
        // "feature/projections" sorts before "main": the old page opened on it.
        await HistorySeed.UploadGoAsync(ingest, slug, 1, branch: "feature/projections");
        await HistorySeed.UploadGoAsync(ingest, slug, 2, branch: "feature/projections");
        var id = await site.WithDbAsync(db => db.Benchmarks.Where(b => db.Suites.Any(s => s.Id == b.SuiteId && db.Projects.Any(p => p.Id == s.ProjectId && p.Slug == slug)))
            .OrderBy(b => b.Key).Select(b => b.Id).FirstAsync());

        var b = site.Browser;
        b.Open(site.Url($"/explorer.html?project={slug}"));
        b.WaitFor("#branch");
        Assert.Equal("main", b.Json<string>("return JSON.stringify(document.getElementById('branch').value)"));
        Assert.Contains("No runs on main yet", b.WaitFor("#no-runs").Text);
        Assert.Contains("feature/projections", b.WaitFor("#no-runs").Text);

        b.Open(site.Url($"/explorer.html?project={slug}&b={id}"));
        var card = b.WaitFor($"article.chart-card[data-benchmark='{id}']");
        Assert.Equal("main", b.Json<string>("return JSON.stringify(document.getElementById('branch').value)"));
        Assert.Contains("No runs on main yet.", card.Text);
        Assert.DoesNotContain("unknown", card.Text);
        Assert.Empty(card.FindElements(OpenQA.Selenium.By.CssSelector(".error")));
        Assert.Empty(b.Errors());
        b.Screenshot("explorer-empty-main");

        // The branch with runs is one choice away, and draws.
        b.Open(site.Url($"/explorer.html?project={slug}&b={id}&branch={Uri.EscapeDataString("feature/projections")}"));
        b.WaitFor($"#chart-{id}");
    }

    [Fact]
    public void Benchmarks_alone_in_their_group_are_listed_without_a_group()
    {
        var b = site.Browser;
        b.Open(site.Url("/explorer.html?project=demo"));
        b.WaitFor("#bench-list input[type=checkbox]");
        var groups = b.Json<int[]>("return JSON.stringify([...document.querySelectorAll('#bench-list details')].map(d => d.querySelectorAll('input').length))");
        Assert.All(groups, n => Assert.True(n > 1, $"a group of {n}"));
        var singles = b.Json<int>("return JSON.stringify(document.querySelectorAll('#bench-list ul.singles input').length)");
        Assert.True(singles > 0, "the seed has benchmarks alone under their name");
        b.Screenshot("explorer-list");
    }
}
