namespace PerfService.Tests.Docs;

/// <summary>Every relative link of the documents resolves: the file or folder exists, and a heading anchor names a
/// heading of the Markdown file it points into (as GitHub spells heading ids).</summary>
public class DocumentLinkTests
{
    [Theory]
    [MemberData(nameof(Documents.Names), MemberType = typeof(Documents))]
    public void Every_relative_link_resolves(string name)
    {
        var broken = Broken(name, Documents.Text(name)).ToList();
        Assert.True(broken.Count == 0, $"{name} has broken links:\n" + string.Join('\n', broken));
    }

    [Fact]
    public void A_broken_file_or_anchor_is_reported()
    {
        // The check itself, on links that cannot resolve: it must name each one, or the theory above proves nothing.
        const string page = "[gone](docs/no-such-page.md) [bad anchor](docs/github.md#no-such-heading) [self](#nowhere)\n\n# Here\n";
        var broken = Broken("README.md", page).ToList();
        Assert.Equal(3, broken.Count);
        Assert.Empty(Broken("README.md", "[ok](docs/github.md#commands-in-comments) [self](#here)\n\n# Here\n"));
    }

    internal static IEnumerable<string> Broken(string name, string text)
    {
        var document = Documents.Parse(text);
        var dir = Path.GetDirectoryName(Path.Combine(Documents.Root, name))!;
        foreach (var (url, line) in Documents.Links(document))
        {
            if (url.Length == 0 || url.Contains("://", StringComparison.Ordinal) || url.StartsWith("mailto:", StringComparison.Ordinal)) continue;
            var hash = url.IndexOf('#');
            var path = Uri.UnescapeDataString(hash < 0 ? url : url[..hash]);
            var anchor = hash < 0 ? null : url[(hash + 1)..];
            var target = path.Length == 0 ? Path.Combine(Documents.Root, name) : Path.GetFullPath(Path.Combine(dir, path));
            if (!File.Exists(target) && !Directory.Exists(target))
            {
                yield return $"  line {line}: {url} (no file {Path.GetRelativePath(Documents.Root, target)})";
                continue;
            }
            if (anchor is null || !target.EndsWith(".md", StringComparison.Ordinal)) continue;
            var anchors = Documents.Anchors(path.Length == 0 ? document : Documents.Parse(File.ReadAllText(target)));
            if (!anchors.Contains(anchor))
                yield return $"  line {line}: {url} (no heading #{anchor}; it has: {string.Join(", ", anchors.Order())})";
        }
    }
}
