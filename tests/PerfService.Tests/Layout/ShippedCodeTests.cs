using System.Text.RegularExpressions;
using System.Xml.Linq;

namespace PerfService.Tests.Layout;

/// <summary>What ships is built from src/ alone: the research, load and demo tools under tools/ stay out of it.</summary>
public sealed partial class ShippedCodeTests
{
    private static readonly string Src = Path.Combine(TestPaths.RepoRoot, "src");
    private static readonly string Tools = Path.Combine(TestPaths.RepoRoot, "tools") + Path.DirectorySeparatorChar;

    [Fact]
    public void No_project_under_src_references_a_project_under_tools()
    {
        var projects = Files(Src, "*.csproj").ToList();
        Assert.NotEmpty(projects);
        var intoTools =
            from project in projects
            from reference in XDocument.Load(project).Descendants("ProjectReference")
            let target = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(project)!, reference.Attribute("Include")!.Value))
            where target.StartsWith(Tools, StringComparison.Ordinal)
            select $"{Path.GetRelativePath(TestPaths.RepoRoot, project)} → {Path.GetRelativePath(TestPaths.RepoRoot, target)}";
        Assert.Empty(intoTools);
    }

    [Fact]
    public void No_source_under_src_names_a_namespace_of_tools()
    {
        var namespaces = Files(Tools, "*.cs")
            .SelectMany(f => NamespaceDeclaration().Matches(File.ReadAllText(f)).Select(m => m.Groups[1].Value))
            .Distinct().ToList();
        Assert.Contains("PerfService.ChangePointEval", namespaces);
        Assert.Contains("PerfService.CompareEval", namespaces);
        var mentions =
            from file in Files(Src, "*.cs")
            from ns in namespaces
            where Regex.IsMatch(File.ReadAllText(file), $@"(?<![\w.]){Regex.Escape(ns)}(?!\w)")
            select $"{Path.GetRelativePath(TestPaths.RepoRoot, file)} names {ns}";
        Assert.Empty(mentions);
    }

    private static IEnumerable<string> Files(string root, string pattern) =>
        Directory.EnumerateFiles(root, pattern, SearchOption.AllDirectories)
            .Where(f => !f.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj"));

    [GeneratedRegex(@"^\s*namespace\s+([\w.]+)", RegexOptions.Multiline)]
    private static partial Regex NamespaceDeclaration();
}
