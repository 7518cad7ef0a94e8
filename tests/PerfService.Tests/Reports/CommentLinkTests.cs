using System.Globalization;
using System.Text.RegularExpressions;
using PerfService.Core.Comparison;
using PerfService.Core.Reports;
using PerfService.Core.Targets;

namespace PerfService.Tests.Reports;

/// <summary>
/// The renderer's rule "no links from user data": benchmark names (and every other user text) that GitHub would turn
/// into links (URLs, www. hosts, issue and commit references, mentions) reach the comment inert.
/// </summary>
public partial class CommentLinkTests
{
    public CommentLinkTests() => CultureInfo.CurrentCulture = CultureInfo.CurrentUICulture = CultureInfo.InvariantCulture;

    public static TheoryData<string> Linkable => new()
    {
        "Fetch https://evil.example/login?next=1",
        "Fetch http://evil.example",
        "ftp://files.evil.example/x",
        "Visit www.evil.example today",
        "WWW.EVIL.EXAMPLE",
        "(www.evil.example)",
        "Fixes owner/repo#1",
        "Closes #123",
        "See GH-42",
        "Since 3f9a1c2e7b4d5a6c8e9f0a1b2c3d4e5f6a7b8c9d",
        "Since deadbeef",
        "Since owner/repo@1a2b3c4",
        "mail me@evil.example",
    };

    [Theory]
    [MemberData(nameof(Linkable))]
    public void A_benchmark_name_that_GitHub_would_link_is_shown_inert(string name)
    {
        var report = SampleReports.Typical() with
        {
            Rows = [SampleReports.Row(name, Outcome.Regression, 10, 20), SampleReports.Row("ok " + name, Outcome.NoChange, 10, 10, reason: name)],
            Targets = [new ReportTarget { Name = name, Profile = name, State = TargetStatus.Fail, Detail = name }],
        };
        var text = CommentRenderer.Render(report);
        // What GitHub renders: the entity is an invisible U+200B, a word boundary to its autolinker.
        var userLines = text.Replace("&#8203;", "\u200B", StringComparison.Ordinal).Split('\n').Where(l => l.Contains("evil", StringComparison.OrdinalIgnoreCase)
            || l.Contains("repo", StringComparison.Ordinal) || l.Contains("123", StringComparison.Ordinal) || l.Contains("GH-", StringComparison.Ordinal)
            || l.Contains("Since", StringComparison.Ordinal)).ToList();
        Assert.NotEmpty(userLines);
        foreach (var line in userLines)
        {
            var userText = OwnLink().Replace(line, "");
            Assert.False(GitHubAutolink().IsMatch(userText), $"GitHub would link '{GitHubAutolink().Match(userText).Value}' in: {line}");
        }
    }

    [Fact]
    public void Neutralised_text_reads_the_same_without_its_zero_width_spaces()
    {
        const string name = "Parse https://x.example #12 www.y.example deadbeef00 GH-1 @team";
        var escaped = MarkdownText.Escape(name).Replace("&#8203;", "", StringComparison.Ordinal);
        Assert.Equal(name, escaped);
        // Ordinary names are left as they are.
        Assert.Equal("Rivulet.Select/1000 items", MarkdownText.Escape("Rivulet.Select/1000 items"));
        Assert.Equal("abcdef", MarkdownText.Escape("abcdef"));
    }

    // A subset of GitHub's autolinker and reference rules: scheme URLs, www. hosts, mentions and emails, issue
    // references (#1, owner/repo#1, GH-1) and commit ids (7 to 40 hex digits as a word, owner/repo@sha).
    [GeneratedRegex(@"[a-z][a-z0-9+.-]*://|(?<![A-Za-z0-9])www\.|@[A-Za-z0-9]|#\d|GH-\d|\b[0-9a-fA-F]{7,40}\b", RegexOptions.IgnoreCase)]
    private static partial Regex GitHubAutolink();

    // The renderer's own links (dashboard, explorer) are ours, not user data; GitHub links nothing inside a code span.
    [GeneratedRegex(@"\]\([^)]*\)|(?<!\\)`[^`]*(?<!\\)`|https://perf\.example\.com\S*")]
    private static partial Regex OwnLink();
}
