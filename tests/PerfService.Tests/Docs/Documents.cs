using Markdig;
using Markdig.Extensions.AutoIdentifiers;
using Markdig.Renderers.Html;
using Markdig.Syntax;
using Markdig.Syntax.Inlines;
using PerfService.Tests.Deploy;

namespace PerfService.Tests.Docs;

/// <summary>The documents users and contributors read, parsed as GitHub renders them (Markdig, GitHub heading ids).</summary>
internal static class Documents
{
    private static readonly MarkdownPipeline Pipeline = new MarkdownPipelineBuilder()
        .UsePipeTables()
        .UseAutoIdentifiers(AutoIdentifierOptions.GitHub)
        .Build();

    public static string Root => DeployFiles.RepoRoot;

    /// <summary>README.md, DEVELOPMENT.md and every Markdown file under docs/ and deploy/, relative to the root.</summary>
    public static IReadOnlyList<string> All() =>
        new[] { "README.md", "DEVELOPMENT.md" }
            .Concat(new[] { "docs", "deploy" }.SelectMany(dir =>
                Directory.EnumerateFiles(Path.Combine(Root, dir), "*.md", SearchOption.AllDirectories).Select(f => Path.GetRelativePath(Root, f))))
            .Select(p => p.Replace('\\', '/'))
            .Order(StringComparer.Ordinal)
            .ToList();

    public static TheoryData<string> Names()
    {
        var data = new TheoryData<string>();
        foreach (var name in All()) data.Add(name);
        return data;
    }

    /// <summary>The pages that instruct: everything but the dated measurement logs, which record commands as they were run.</summary>
    public static TheoryData<string> Instructions()
    {
        var data = new TheoryData<string>();
        foreach (var name in All().Where(n => !n.StartsWith("docs/measurements/", StringComparison.Ordinal))) data.Add(name);
        return data;
    }

    public static string Text(string name) => File.ReadAllText(Path.Combine(Root, name));

    public static MarkdownDocument Parse(string text) => Markdown.Parse(text, Pipeline);

    /// <summary>Every link target of a document (inline, reference and image links), with its line (1-based).</summary>
    public static IEnumerable<(string Url, int Line)> Links(MarkdownDocument document) =>
        document.Descendants<LinkInline>().Where(l => l.Url is not null).Select(l => (l.Url!, l.Line + 1));

    /// <summary>The heading ids GitHub gives a document's headings.</summary>
    public static IReadOnlySet<string> Anchors(MarkdownDocument document) =>
        document.Descendants<HeadingBlock>().Select(h => h.GetAttributes().Id).OfType<string>().ToHashSet(StringComparer.Ordinal);

    /// <summary>The fenced code blocks of a document whose info string is <paramref name="language"/>, as lines.</summary>
    public static IEnumerable<(IReadOnlyList<string> Lines, int Line)> Fences(MarkdownDocument document, string language) =>
        document.Descendants<FencedCodeBlock>()
            .Where(b => string.Equals(b.Info, language, StringComparison.Ordinal))
            .Select(b => ((IReadOnlyList<string>)b.Lines.Lines.Take(b.Lines.Count).Select(l => l.ToString()).ToList(), b.Line + 1));
}
