using System.Globalization;
using PerfService.Core.Reports;
using PerfService.Core.Comparison;

namespace PerfService.Tests.Reports;

public class CommentRendererTests
{
    public CommentRendererTests() => CultureInfo.CurrentCulture = CultureInfo.CurrentUICulture = CultureInfo.InvariantCulture;

    [Fact]
    public void Typical() => Snapshot.Match(CommentRenderer.Render(SampleReports.Typical()), "typical");

    [Fact]
    public void Empty_while_profiles_are_pending() => Snapshot.Match(CommentRenderer.Render(SampleReports.Empty()), "empty");

    [Fact]
    public void Mixed_profiles() => Snapshot.Match(CommentRenderer.Render(SampleReports.MixedProfiles()), "mixed-profiles");

    [Fact]
    public void Results_a_ci_job_submitted_beside_the_agents_have_a_section_of_their_own() =>
        Snapshot.Match(CommentRenderer.Render(SampleReports.Typical() with
        {
            Submitted = SampleReports.MixedProfiles() with { FromSubmissions = true, PendingProfiles = [] },
        }), "submitted");

    [Fact]
    public void Results_that_all_come_from_ci_say_so_under_the_heading()
    {
        var text = CommentRenderer.Render(SampleReports.Typical() with { FromSubmissions = true });
        Assert.Contains("Results posted by a CI job, not measured by PerfService's agents (status `perfservice/demo/submitted`).", text);
        Assert.DoesNotContain("#### Submitted from CI", text);
    }

    [Fact]
    public void A_huge_submission_shows_its_largest_changes_and_the_comment_still_fits()
    {
        var text = CommentRenderer.Render(SampleReports.Typical() with { Submitted = SampleReports.Huge(3000) with { FromSubmissions = true } });
        var section = text[text.IndexOf("#### Submitted from CI", StringComparison.Ordinal)..];
        Assert.Equal(10, section.Split('\n').Count(l => l.StartsWith("| 🔴", StringComparison.Ordinal) || l.StartsWith("| 🟢", StringComparison.Ordinal)));
        Assert.Contains("_… and 70 more changes: see the dashboard._", section);
        Assert.True(text.Length <= CommentRenderer.GitHubMaxLength);
    }

    [Fact]
    public void Rows_compared_with_branch_history_are_marked_and_explained_once()
    {
        var text = CommentRenderer.Render(SampleReports.HistoryBaseline());
        Snapshot.Match(text, "history-baseline");
        Assert.Single(text.Split('\n'), l => l.StartsWith("† ", StringComparison.Ordinal));
        Assert.DoesNotContain("† ", CommentRenderer.Render(SampleReports.Typical()));
    }

    [Fact]
    public void Hostile_names_are_escaped()
    {
        var text = CommentRenderer.Render(SampleReports.Hostile());
        Snapshot.Match(text, "hostile");

        Assert.DoesNotContain("<script", text);
        Assert.DoesNotContain("<img", text);
        Assert.DoesNotContain("<b>", text);
        Assert.DoesNotContain("<details open", text);
        Assert.DoesNotMatch(@"(?<!\\)\]\(javascript", text);
        Assert.DoesNotContain("@octocat", text);
        Assert.DoesNotContain('\u202E', text);
        // Only our own marker, as the last line; the one in a benchmark name is inert text.
        Assert.Single(text.Split('\n'), l => l.Contains("<!--", StringComparison.Ordinal));
        Assert.EndsWith(CommentRenderer.Marker("demo"), text);
        // Every table row keeps its column count: no name can add or split cells.
        foreach (var table in Tables(text))
            Assert.All(table, row => Assert.Equal(CountCells(table[0]), CountCells(row)));
    }

    [Fact]
    public void Huge_reports_are_cut_under_the_limit_and_keep_every_regression()
    {
        var report = SampleReports.Huge();
        var text = CommentRenderer.Render(report);

        Assert.InRange(text.Length, 40_000, CommentRenderer.GitHubMaxLength);
        foreach (var regression in report.Rows.Where(r => r.Outcome == Outcome.Regression))
            Assert.Contains(MarkdownText.Escape(regression.Benchmark), text);
        Assert.Contains("Target 4", text);
        Assert.Matches(@"_… and \d+ more rows: see the \[dashboard\]\(https://perf\.example\.com/projects/demo/pulls/42\)\._", text);
        Assert.Contains("**50 regressions, 30 improvements, 4920 unchanged, 5 failed targets**", text);
        Assert.EndsWith(CommentRenderer.Marker("demo"), text);
    }

    [Fact]
    public void Regressions_link_to_the_explorer_and_show_their_history_as_mermaid_charts()
    {
        var text = CommentRenderer.Render(SampleReports.WithHistory());
        Snapshot.Match(text, "with-history");
        // Two regressions have history: one chart each, inside one collapsed section.
        Assert.Equal(2, text.Split("```mermaid\nxychart-beta", StringSplitOptions.None).Length - 1);
        Assert.Contains("<details>\n<summary>History of the 2 largest regressions on main, and where head lands</summary>", text);
        Assert.Contains("[Demo.Json.Parse(Size: 1000)](https://perf.example.com/explorer.html?project=demo&b=100&measure=time&profile=ryzen-9950x&base=1a2b3c4d5e&head=3f9a1c2e7b)", text);
    }

    [Fact]
    public void The_regressions_alert_group_is_linked_in_the_header()
    {
        var typical = SampleReports.Typical();
        var grouped = typical with
        {
            Rows = typical.Rows.Select(r => r.Outcome == Outcome.Regression
                ? r with { AlertGroupId = 17, AlertGroupUrl = "https://perf.example.com/alerts.html?group=17" } : r).ToList(),
        };
        var text = CommentRenderer.Render(grouped);
        var header = text.Split('\n').Single(l => l.StartsWith("Head ", StringComparison.Ordinal));
        Assert.EndsWith(" · [Alert group #17](https://perf.example.com/alerts.html?group=17)", header);
        // Without the public URL there is no link, and nothing else changes.
        Assert.Equal(CommentRenderer.Render(typical), CommentRenderer.Render(typical with
        {
            Rows = typical.Rows.Select(r => r with { AlertGroupId = 17 }).ToList(),
        }));
    }

    [Fact]
    public void At_most_five_charts_largest_change_first()
    {
        var text = CommentRenderer.Render(SampleReports.HugeWithHistory(200));
        Assert.Equal(CommentCharts.MaxCharts, text.Split("```mermaid", StringSplitOptions.None).Length - 1);
        // Huge's regressions grow with their index: the largest is the last one.
        var first = text.IndexOf("```mermaid", StringComparison.Ordinal);
        Assert.Contains("Benchmark0049", text[first..text.IndexOf("```\n", first + 10, StringComparison.Ordinal)]);
    }

    [Fact]
    public void Charts_are_dropped_before_any_row()
    {
        var report = SampleReports.WithHistory();
        var full = CommentRenderer.Render(report);
        var text = CommentRenderer.Render(report, full.Length - 1);
        Assert.DoesNotContain("mermaid", text);
        Assert.DoesNotContain("more row", text);
        foreach (var row in report.Rows) Assert.Contains(MarkdownText.Escape(row.Benchmark), text);
    }

    [Fact]
    public void Ten_thousand_benchmarks_with_history_stay_under_the_limit()
    {
        var report = SampleReports.HugeWithHistory(10_000);
        var text = CommentRenderer.Render(report);
        Assert.InRange(text.Length, 40_000, CommentRenderer.GitHubMaxLength);
        foreach (var regression in report.Rows.Where(r => r.Outcome == Outcome.Regression))
            Assert.Contains(MarkdownText.Escape(regression.Benchmark), text);
        Assert.EndsWith(CommentRenderer.Marker("demo"), text);
    }

    [Fact]
    public void Hostile_names_cannot_break_out_of_a_chart()
    {
        var row = SampleReports.Row("Evil\"]\n```\n<script>@octocat", Outcome.Regression, 10, 20) with { History = SampleReports.History(10, 3) };
        var text = CommentRenderer.Render(SampleReports.Typical() with { Rows = [row] });
        var chart = text[text.IndexOf("```mermaid", StringComparison.Ordinal)..];
        chart = chart[..(chart.IndexOf("\n```\n", StringComparison.Ordinal) + 5)];
        Assert.Equal(2, chart.Split("```", StringSplitOptions.None).Length - 1);
        Assert.Contains("title \"Evil________script__octocat\"", chart);
    }

    [Fact]
    public void Huge_report_cut_to_a_small_limit()
    {
        var text = CommentRenderer.Render(SampleReports.Huge(), maxLength: 3_000);
        Assert.True(text.Length <= 3_000, $"{text.Length} characters");
        Snapshot.Match(text, "huge-3000");
    }

    [Fact]
    public void Any_report_fits_any_limit()
    {
        var random = new Random(6);
        for (var i = 0; i < 40; i++)
        {
            var report = SampleReports.Huge(random.Next(0, 400)) with
            {
                PendingProfiles = random.Next(2) == 0 ? [] : ["m1-pro"],
                DashboardUrl = random.Next(2) == 0 ? null : SampleReports.Dashboard,
            };
            var limit = random.Next(1_000, 20_000);
            var text = CommentRenderer.Render(report, limit);
            Assert.True(text.Length <= limit, $"{text.Length} > {limit}");
            Assert.True(CommentRenderer.HasMarker(text, "demo"));
        }
    }

    [Fact]
    public void Rendering_is_deterministic() =>
        Assert.Equal(CommentRenderer.Render(SampleReports.Huge()), CommentRenderer.Render(SampleReports.Huge()));

    [Fact]
    public void The_marker_counts_only_as_the_last_line()
    {
        Assert.True(CommentRenderer.HasMarker("text\n\n<!-- perfservice:project=demo -->\r\n", "demo"));
        Assert.False(CommentRenderer.HasMarker("<!-- perfservice:project=demo -->\nquoted by someone", "demo"));
        Assert.False(CommentRenderer.HasMarker("text\n<!-- perfservice:project=demo2 -->", "demo"));
        Assert.False(CommentRenderer.HasMarker(null, "demo"));
    }

    private static List<List<string>> Tables(string text)
    {
        var tables = new List<List<string>>();
        List<string>? current = null;
        foreach (var line in text.Split('\n'))
        {
            if (line.StartsWith('|'))
                (current ??= []).Add(line);
            else if (current is not null)
            {
                tables.Add(current);
                current = null;
            }
        }
        return tables;
    }

    // A cell boundary is a '|' not escaped by a backslash (an escaped backslash before it does not count).
    private static int CountCells(string row)
    {
        var count = 0;
        for (var i = 0; i < row.Length; i++)
        {
            if (row[i] == '\\') i++;
            else if (row[i] == '|') count++;
        }
        return count;
    }
}
