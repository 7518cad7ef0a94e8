using System.Text.Json;
using System.Text.Json.Serialization;
using PerfService.Core.Reports;

namespace PerfService.Tests.Reports;

/// <summary>The summary the dashboard's pull request page shows is the comment's first lines, as data.</summary>
public class ReportSummaryTests
{
    [Fact]
    public void The_summary_says_what_the_comments_headline_and_profile_lines_say()
    {
        var report = SampleReports.MixedProfiles();
        var comment = CommentRenderer.Render(report).Split('\n');
        var summary = report.Summary;

        Assert.Contains($"**{summary.Total.Text}**", comment);
        Assert.Equal(["m1-pro", "ryzen-9950x"], summary.Profiles.Select(p => p.Profile));
        Assert.All(summary.Profiles, p => Assert.Contains($"- `{p.Profile}`: {p.Counts.Text}", comment));
        Assert.Equal("1 regression, 1 improvement, 2 unchanged", summary.Profiles[0].Counts.Text);
    }

    [Fact]
    public void The_reports_json_carries_the_summary_and_the_check_and_reads_back()
    {
        var options = new JsonSerializerOptions(JsonSerializerDefaults.Web) { Converters = { new JsonStringEnumConverter() } };
        var report = SampleReports.Typical();
        var json = JsonSerializer.SerializeToElement(report, options);

        Assert.Equal(report.Summary.Total.Text, json.GetProperty("summary").GetProperty("total").GetProperty("text").GetString());
        Assert.Equal("Failure", json.GetProperty("check").GetProperty("state").GetString());
        // Computed on read, never stored: a client reading the JSON back into the record gets the same counts.
        Assert.Equal(report.Summary.Total, JsonSerializer.Deserialize<PullRequestReport>(json, options)!.Summary.Total);
    }
}
