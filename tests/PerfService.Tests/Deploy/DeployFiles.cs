using System.Reflection;
using System.Text.Json;
using YamlDotNet.RepresentationModel;

namespace PerfService.Tests.Deploy;

/// <summary>The files under deploy/ of the checkout, read as they are: YAML documents, systemd units, profiles.</summary>
internal static class DeployFiles
{
    public static string RepoRoot { get; } = FindRepoRoot();
    public static string DeployDir => Path.Combine(RepoRoot, "deploy");
    public static string K8sDir => Path.Combine(DeployDir, "k8s");
    public static string ComposeDir => Path.Combine(DeployDir, "compose");
    public static string SystemdDir => Path.Combine(DeployDir, "systemd");
    public static string DockerDir => Path.Combine(DeployDir, "docker");

    public static string Relative(string path) => Path.GetRelativePath(RepoRoot, path);

    /// <summary>The profiles of deploy/profiles.json: name and architecture ("x64", "arm64").</summary>
    public static IReadOnlyList<(string Name, string Arch)> Profiles()
    {
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(DeployDir, "profiles.json")));
        return json.RootElement.GetProperty("profiles").EnumerateArray()
            .Select(p => (p.GetProperty("name").GetString()!, p.GetProperty("arch").GetString()!))
            .ToList();
    }

    public static TheoryData<string> ProfileNames()
    {
        var data = new TheoryData<string>();
        foreach (var (name, _) in Profiles()) data.Add(name);
        return data;
    }

    /// <summary>Every YAML document of a file; a file of comments only has none.</summary>
    public static IReadOnlyList<YamlNode> LoadYaml(string path)
    {
        var stream = new YamlStream();
        using (var reader = new StringReader(File.ReadAllText(path))) stream.Load(reader);
        return stream.Documents.Select(d => d.RootNode).ToList();
    }

    public static IEnumerable<string> YamlFilesUnder(string dir) =>
        Directory.EnumerateFiles(dir, "*.*", SearchOption.AllDirectories)
            .Where(f => f.EndsWith(".yaml", StringComparison.Ordinal) || f.EndsWith(".yml", StringComparison.Ordinal))
            .Order(StringComparer.Ordinal);

    /// <summary>The objects a kustomization applies: its resources, following sub-kustomizations.</summary>
    public static IReadOnlyList<K8sObject> Kustomize(string dir)
    {
        var kustomization = LoadYaml(Path.Combine(dir, "kustomization.yaml")).Single();
        var objects = new List<K8sObject>();
        foreach (var resource in kustomization.Seq("resources").Select(r => r.Str()!))
        {
            var path = Path.GetFullPath(Path.Combine(dir, resource));
            if (Directory.Exists(path)) objects.AddRange(Kustomize(path));
            else objects.AddRange(LoadYaml(path).OfType<YamlMappingNode>().Select(d => new K8sObject(path, d)));
        }
        return objects;
    }

    /// <summary>The objects of one manifest file.</summary>
    public static IReadOnlyList<K8sObject> Objects(string path) =>
        LoadYaml(path).OfType<YamlMappingNode>().Select(d => new K8sObject(path, d)).ToList();

    /// <summary>A systemd unit as sections of (key, value) pairs, in order; a key may repeat (ExecStart, Environment).</summary>
    public static IReadOnlyDictionary<string, List<(string Key, string Value)>> LoadUnit(string path)
    {
        var sections = new Dictionary<string, List<(string, string)>>(StringComparer.Ordinal);
        List<(string, string)>? current = null;
        var lines = File.ReadAllLines(path);
        for (var i = 0; i < lines.Length; i++)
        {
            var line = lines[i].Trim();
            // A trailing backslash continues the line.
            while (line.EndsWith('\\') && i + 1 < lines.Length) line = line[..^1] + " " + lines[++i].Trim();
            if (line.Length == 0 || line[0] is '#' or ';') continue;
            if (line.StartsWith('[') && line.EndsWith(']'))
            {
                var name = line[1..^1];
                Assert.False(sections.ContainsKey(name), $"{Relative(path)}: section [{name}] appears twice");
                sections[name] = current = [];
                continue;
            }
            var eq = line.IndexOf('=');
            Assert.True(eq > 0, $"{Relative(path)}:{i + 1}: not 'Key=Value': {line}");
            Assert.True(current is not null, $"{Relative(path)}:{i + 1}: a setting before any [Section]");
            current!.Add((line[..eq].Trim(), line[(eq + 1)..].Trim()));
        }
        return sections;
    }

    public static IReadOnlyList<string> Values(this IReadOnlyDictionary<string, List<(string Key, string Value)>> unit, string section, string key) =>
        unit.TryGetValue(section, out var entries) ? entries.Where(e => e.Key == key).Select(e => e.Value).ToList() : [];

    public static string? Value(this IReadOnlyDictionary<string, List<(string Key, string Value)>> unit, string section, string key) =>
        unit.Values(section, key).LastOrDefault();

    /// <summary>The names an env file (KEY=VALUE lines) defines; commented-out lines do not count.</summary>
    public static IReadOnlySet<string> EnvKeys(string path) =>
        File.ReadAllLines(path).Select(l => l.Trim())
            .Where(l => l.Length > 0 && l[0] != '#' && l.Contains('='))
            .Select(l => l[..l.IndexOf('=')].Trim())
            .ToHashSet(StringComparer.Ordinal);

    /// <summary>The option names the agent verb accepts, read from its source (src/Agents/Cli).</summary>
    public static IReadOnlySet<string> AgentOptions()
    {
        var cli = Path.Combine(RepoRoot, "src", "Agents", "Cli");
        var options = new HashSet<string>(StringComparer.Ordinal);
        foreach (var file in new[] { "AgentCommand.cs", "CommonOptions.cs" })
        {
            foreach (System.Text.RegularExpressions.Match m in System.Text.RegularExpressions.Regex.Matches(
                File.ReadAllText(Path.Combine(cli, file)), "new(?: Option<[^>]+>)?\\(\"(--[a-z-]+)\""))
                options.Add(m.Groups[1].Value);
        }
        return options;
    }

    private static string FindRepoRoot()
    {
        var starts = new List<string?>
        {
            Environment.GetEnvironmentVariable("PERF_REPO_ROOT"),
            Directory.GetCurrentDirectory(),
            AppContext.BaseDirectory,
            // tests/fixtures of the checkout this assembly was built from (tests/Directory.Build.props writes it).
            typeof(DeployFiles).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().FirstOrDefault(a => a.Key == "PerfFixtures")?.Value,
        };
        foreach (var start in starts.Where(s => !string.IsNullOrEmpty(s)))
        {
            for (var dir = new DirectoryInfo(start!); dir is not null; dir = dir.Parent)
            {
                if (File.Exists(Path.Combine(dir.FullName, "deploy", "profiles.json")) && File.Exists(Path.Combine(dir.FullName, "PerfService.sln")))
                    return dir.FullName;
            }
        }
        throw new DirectoryNotFoundException("the checkout (deploy/profiles.json beside PerfService.sln) was not found: set PERF_REPO_ROOT");
    }
}

/// <summary>One Kubernetes object and the file it came from.</summary>
internal sealed record K8sObject(string File, YamlMappingNode Root)
{
    public string? ApiVersion => Root.Str("apiVersion");
    public string? Kind => Root.Str("kind");
    public string? Name => Root.Str("metadata", "name");
    public string Where => $"{DeployFiles.Relative(File)}: {Kind}/{Name}";

    /// <summary>The pod template's spec of a workload (Deployment, StatefulSet, DaemonSet, Job), else null.</summary>
    public YamlNode? PodSpec => Kind is "Deployment" or "StatefulSet" or "DaemonSet" or "Job" ? Root.At("spec", "template", "spec") : null;

    public IEnumerable<YamlNode> Containers => PodSpec.Seq("containers").Concat(PodSpec.Seq("initContainers"));
}

/// <summary>Small navigation helpers over YamlDotNet's representation model.</summary>
internal static class YamlNav
{
    public static YamlNode? At(this YamlNode? node, params string[] path)
    {
        foreach (var key in path)
        {
            if (node is not YamlMappingNode map || !map.Children.TryGetValue(new YamlScalarNode(key), out node)) return null;
        }
        return node;
    }

    public static string? Str(this YamlNode? node, params string[] path) => node.At(path) is YamlScalarNode s ? s.Value : null;

    public static IEnumerable<YamlNode> Seq(this YamlNode? node, params string[] path) =>
        node.At(path) is YamlSequenceNode seq ? seq.Children : [];

    public static IEnumerable<(string Key, YamlNode Value)> Entries(this YamlNode? node, params string[] path) =>
        node.At(path) is YamlMappingNode map ? map.Children.Select(c => (((YamlScalarNode)c.Key).Value!, c.Value)) : [];

    /// <summary>Every scalar of a sequence (a list-form command), or the one scalar (a string-form command).</summary>
    public static IReadOnlyList<string> Words(this YamlNode? node, params string[] path) => node.At(path) switch
    {
        YamlSequenceNode seq => seq.Children.Select(c => c.Str() ?? "").ToList(),
        YamlScalarNode s when s.Value is not null => s.Value.Split(' ', StringSplitOptions.RemoveEmptyEntries),
        _ => [],
    };
}
