using System.Net.Http.Json;
using System.Text.Json;
using System.Text.Json.Serialization;
using OpenQA.Selenium;
using PerfService.Core.Comparison;
using PerfService.Core.Reports;
using PerfService.Core.Targets;

namespace Dashboard.BrowserTests;

/// <summary>The pull request page opens on what the PR comment says, with its numbers, across every profile; then the runs.</summary>
[Collection(SiteCollection.Name)]
public class PullRequestPageTests(DashboardSite site)
{
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web) { Converters = { new JsonStringEnumConverter() } };

    [Fact]
    public async Task The_page_opens_on_the_comments_verdict_over_every_profile_then_the_runs()
    {
        var report = (await site.Http().GetFromJsonAsync<PullRequestReport>("/api/v1/projects/demo/pulls/7/report", Json))!;
        var comment = await site.Http().GetStringAsync("/api/v1/projects/demo/pulls/7/comment");
        Assert.Equal(2, report.Summary.Profiles.Count);

        var b = site.Browser;
        b.Open(site.Url("/pr.html?project=demo&pr=7"));
        var verdict = b.WaitFor("#pr-summary .verdict strong");
        // The comment's headline and per-profile lines, word for word (the comment puts names in backticks).
        var lines = comment.Replace("`", "", StringComparison.Ordinal).Split('\n');
        Assert.Contains($"**{verdict.Text}**", lines);
        Assert.Equal("2 regressions, 2 improvements, 4 unchanged, 1 inconclusive, 1 failed target", verdict.Text);
        var perProfile = b.Driver.FindElements(By.CssSelector("#pr-summary ul.profiles li")).Select(li => li.Text).ToList();
        Assert.Equal(report.Summary.Profiles.Select(p => $"{p.Profile}: {p.Counts.Text}"), perProfile);
        Assert.All(perProfile, line => Assert.Contains($"- {line}", lines));
        Assert.Equal((CommitStatusState.Failure, "failure"), (report.Check.State, b.WaitFor("#pr-summary .verdict .badge").Text));

        // The changes of every profile, largest regression first, with the interval, the margin and no p column.
        var changes = Rows("#changes");
        var expected = report.Rows.Where(r => r.Outcome is Outcome.Regression or Outcome.Improvement).ToList();
        Assert.Equal(expected.Count, changes.Count);
        Assert.Equal(expected.Select(r => r.Profile).Distinct().Order(), changes.Select(r => Cells(r)[2]).Distinct().Order());
        Assert.Equal(["Benchmark", "Measure", "Profile", "Base", "Head", "Change", "Change interval", "Margin", "Outcome"],
            b.Driver.FindElements(By.CssSelector("#changes thead th")).Select(th => th.Text));
        Assert.Equal(["+21.0%", "[+19.0%, +23.0%]", "±5%", "regression"], Cells(changes.First())[5..]);
        Assert.Equal(["regression", "regression", "improvement", "improvement"], changes.Select(r => Cells(r)[8]));
        // The margins are the comment's, the widened one with both its figures.
        Assert.Equal(expected.Select(r => ValueFormat.Margin(r.NoChangeMargin, r.Threshold)).Order(), changes.Select(r => Cells(r)[7]).Order());
        Assert.Contains("±5% / ±6%", changes.Select(r => Cells(r)[7]));
        Assert.Contains("| ±5% / ±6% |", comment);

        // The rest is folded as in the comment; the targets no run measured are one line saying how many and why.
        var others = b.WaitFor("#pr-others");
        var unmeasured = report.Targets.Count(t => t.State == TargetStatus.NotMeasured);
        Assert.Equal(BrowserSeed.UnmeasuredTargets.Length * 2, unmeasured);
        var count = report.Rows.Count(r => r.Outcome is Outcome.NoChange or Outcome.Inconclusive) + report.Targets.Count(t => t.State != TargetStatus.Fail);
        Assert.Contains($"<summary>{count} other results</summary>", comment);
        others.FindElement(By.TagName("summary")).Click();
        Assert.Equal($"{count} other results", others.FindElement(By.TagName("summary")).Text);
        Assert.Equal($"{unmeasured} targets not measured (on 2 profiles): no result matches the benchmarks they name.",
            b.WaitFor("#unmeasured-targets summary").Text);
        Assert.Equal(["writes under 20 µs", "i7-4790k", "fail", "p50 23.4 µs > 20 µs"], Cells(Rows("#failed-targets").Single()));
        var quiet = report.Rows.Where(r => r.Outcome is Outcome.NoChange or Outcome.Inconclusive).Select(r => r.Outcome == Outcome.NoChange ? "no change" : "inconclusive");
        Assert.Equal(quiet.Order(), Rows("#other-rows").Select(r => Cells(r)[8]).Order());

        // Then the runs: each profile's latest head run first.
        var runs = b.WaitFor("#pr-runs");
        Assert.True(Before("#pr-summary", "#pr-runs"), "the verdict comes before the runs");
        Assert.Equal([site.Data.PrHeadRun, site.Data.PrSecondHeadRun],
            b.WaitFor("#latest-head-runs").FindElements(By.TagName("a")).Select(a => long.Parse(a.Text.TrimStart('#'), System.Globalization.CultureInfo.InvariantCulture)));
        Assert.Equal(2, runs.FindElements(By.CssSelector("#runs tbody tr")).Count);
        Assert.Empty(b.Errors());
        b.Screenshot("pull-request");
    }

    [Fact]
    public async Task Results_a_ci_job_submitted_have_a_section_of_their_own_apart_from_the_agents_verdict()
    {
        var report = (await site.Http().GetFromJsonAsync<PullRequestReport>("/api/v1/projects/demo/pulls/7/report", Json))!;
        var submitted = report.Submitted!;
        var b = site.Browser;
        b.Open(site.Url("/pr.html?project=demo&pr=7"));
        var section = b.WaitFor("#pr-submitted");
        Assert.True(Before("#pr-summary", "#pr-submitted"), "the agents' verdict comes first");
        Assert.Equal("Submitted from CI", section.FindElement(By.TagName("h2")).Text);
        Assert.Contains("not measured by PerfService’s agents: they do not count in the verdict above (status perfservice/demo/submitted).", section.Text);
        Assert.Equal($"success {submitted.Summary.Total.Text} · head {submitted.HeadCommit[..10]}", section.FindElement(By.CssSelector(".verdict")).Text);
        Assert.Equal(["-50.0%", "[-52.0%, -48.0%]", "±5%", "improvement"], Cells(Rows("#submitted-changes").Single())[5..]);
        // The agents' verdict is the same as without it: the page's headline is the comment's, which counts no submitted row.
        Assert.Equal("2 regressions, 2 improvements, 4 unchanged, 1 inconclusive, 1 failed target", b.WaitFor("#pr-summary .verdict strong").Text);
        Assert.Empty(b.Errors());
        ((IJavaScriptExecutor)b.Driver).ExecuteScript("arguments[0].scrollIntoView()", section);
        b.Screenshot("pull-request-submitted");
    }

    private IReadOnlyList<IWebElement> Rows(string table) => site.Browser.Driver.FindElements(By.CssSelector($"{table} tbody tr"));

    private static string[] Cells(IWebElement row) => [.. row.FindElements(By.TagName("td")).Select(td => td.Text)];

    private bool Before(string first, string second) => site.Browser.Json<bool>(
        "return JSON.stringify(!!(document.querySelector(arguments[0]).compareDocumentPosition(document.querySelector(arguments[1])) & Node.DOCUMENT_POSITION_FOLLOWING))",
        first, second);
}
