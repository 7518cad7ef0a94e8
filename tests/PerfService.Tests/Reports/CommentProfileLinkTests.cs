using System.Globalization;
using PerfService.Core.Comparison;
using PerfService.Core.Reports;

namespace PerfService.Tests.Reports;

/// <summary>A profiled regression's row links to its differential flame graph; a report without profiles renders as before.</summary>
public class CommentProfileLinkTests
{
    public CommentProfileLinkTests() => CultureInfo.CurrentCulture = CultureInfo.CurrentUICulture = CultureInfo.InvariantCulture;

    private const string Page = "https://perf.example.com/profile.html?job=9&benchmark=Demo.Json.Parse%28Size%3A%201000%29";

    [Fact]
    public void The_regression_row_links_to_the_flame_graph_when_it_was_profiled()
    {
        var plain = SampleReports.WithHistory();
        var profiled = plain with { Rows = [.. plain.Rows.Select(r => r.Outcome == Outcome.Regression ? r with { ProfileUrl = Page } : r)] };

        var text = CommentRenderer.Render(profiled);
        var row = text.Split('\n').First(l => l.Contains("Demo.Json.Parse(Size: 1000)", StringComparison.Ordinal) && l.StartsWith("| 🔴", StringComparison.Ordinal));
        Assert.Contains($" · [flame graph]({Page})", row, StringComparison.Ordinal);
        Assert.DoesNotContain("flame graph", CommentRenderer.Render(plain), StringComparison.Ordinal);
    }

    [Fact]
    public void A_profile_link_that_is_not_http_is_left_out()
    {
        var report = SampleReports.Typical();
        var hostile = report with { Rows = [.. report.Rows.Select(r => r with { ProfileUrl = "javascript:alert(1)" })] };
        Assert.DoesNotContain("flame graph", CommentRenderer.Render(hostile), StringComparison.Ordinal);
    }
}
