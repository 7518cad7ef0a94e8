namespace PerfService.Tests.Docs;

/// <summary>The README stays a first page: short, and its picture of a pull-request comment is a real rendering.</summary>
public class ReadmeTests
{
    private const string Snapshot = "tests/PerfService.Tests/Reports/Snapshots/typical.verified.md";

    [Fact]
    public void The_README_is_at_most_10_KB()
    {
        var bytes = new FileInfo(Path.Combine(Documents.Root, "README.md")).Length;
        Assert.True(bytes <= 10 * 1024, $"README.md is {bytes} bytes; move detail into docs/");
    }

    [Fact]
    public void Every_line_of_the_quoted_comment_is_in_the_rendered_snapshot()
    {
        // The quote is an excerpt: each of its lines must be a line the renderer produced, so it cannot drift from it.
        var rendered = File.ReadAllLines(Path.Combine(Documents.Root, Snapshot)).ToHashSet(StringComparer.Ordinal);
        var quoted = File.ReadAllLines(Path.Combine(Documents.Root, "README.md"))
            .Where(l => l.StartsWith("> ", StringComparison.Ordinal)).Select(l => l[2..]).ToList();
        Assert.True(quoted.Count >= 5, "README.md quotes no comment");
        Assert.All(quoted, l => Assert.True(rendered.Contains(l), $"README.md quotes a line the snapshot does not have: {l}"));
    }
}
