using System.Text.RegularExpressions;
using YamlDotNet.RepresentationModel;

namespace PerfService.EndToEndTests.AnyCi;

/// <summary>Reads the commands out of the README and the GitHub Actions example, so the tests run what users copy.</summary>
public static partial class Docs
{
    public static string Readme => Document("README.md");

    public static string Document(string path) => File.ReadAllText(Path.Combine(SuiteRepository.Repo(), path));

    /// <summary>The curl commands of a document's fenced sh blocks (continuation lines joined), against its example host.</summary>
    public static IReadOnlyList<string> CurlCommands(string path) =>
        Fence().Matches(Document(path)).SelectMany(m => m.Groups[1].Value.Replace("\\\n", " ").Split('\n'))
            .Select(l => l.Trim()).Where(l => l.StartsWith("curl ", StringComparison.Ordinal)).ToList();

    public static string WorkflowPath => Path.Combine(SuiteRepository.Repo(), "deploy", "github-actions", "perf.yml");

    /// <summary>The fenced sh blocks of one README section (from its heading to the next heading of the same level).</summary>
    public static IReadOnlyList<string> ShellBlocks(string heading)
    {
        var text = Readme;
        var start = text.IndexOf("\n## " + heading + "\n", StringComparison.Ordinal);
        Assert.True(start >= 0, $"README has no section '## {heading}'");
        var end = text.IndexOf("\n## ", start + 4, StringComparison.Ordinal);
        var section = end < 0 ? text[start..] : text[start..end];
        return Fence().Matches(section).Select(m => m.Groups[1].Value).ToList();
    }

    public sealed record Step(string? Name, string Run, string? Shell, IReadOnlyDictionary<string, string> Env, string? If);

    /// <summary>The steps of every job in the workflow that have a run script.</summary>
    public static IReadOnlyList<Step> RunSteps()
    {
        var yaml = new YamlStream();
        using (var reader = new StreamReader(WorkflowPath)) yaml.Load(reader);
        var root = (YamlMappingNode)yaml.Documents[0].RootNode;
        var steps = new List<Step>();
        foreach (var (_, job) in (YamlMappingNode)root["jobs"])
            foreach (var node in (YamlSequenceNode)((YamlMappingNode)job)["steps"])
            {
                var step = (YamlMappingNode)node;
                if (Scalar(step, "run") is not { } run) continue;
                var env = step.Children.TryGetValue(new YamlScalarNode("env"), out var e)
                    ? ((YamlMappingNode)e).Children.ToDictionary(kv => ((YamlScalarNode)kv.Key).Value!, kv => ((YamlScalarNode)kv.Value).Value ?? "")
                    : new Dictionary<string, string>();
                steps.Add(new Step(Scalar(step, "name"), run, Scalar(step, "shell"), env, Scalar(step, "if")));
            }
        return steps;
    }

    /// <summary>Replaces GitHub's ${{ a || b }} expressions from a context of known names; a name the context does not
    /// know fails the test, so the example cannot start using context the test does not simulate.</summary>
    public static string Expand(string text, IReadOnlyDictionary<string, string> context) =>
        Expression().Replace(text, m =>
        {
            foreach (var operand in m.Groups[1].Value.Split("||", StringSplitOptions.TrimEntries))
            {
                Assert.True(context.TryGetValue(operand, out var value), $"the workflow uses '{operand}', which the test does not simulate");
                if (!string.IsNullOrEmpty(value)) return value;
            }
            return "";
        });

    private static string? Scalar(YamlMappingNode node, string key) =>
        node.Children.TryGetValue(new YamlScalarNode(key), out var value) ? ((YamlScalarNode)value).Value : null;

    [GeneratedRegex(@"```sh\n(.*?)```", RegexOptions.Singleline)]
    private static partial Regex Fence();

    [GeneratedRegex(@"\$\{\{\s*(.+?)\s*\}\}")]
    private static partial Regex Expression();
}
