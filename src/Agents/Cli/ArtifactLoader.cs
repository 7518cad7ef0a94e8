using PerfService.Core.Parsing;

namespace PerfService.Agents.Cli;

/// <summary>Reads what the user points at: a file as itself, a folder as all its files with '/'-separated paths
/// relative to it (a criterion tree keeps group/function/new/estimates.json).</summary>
public static class ArtifactLoader
{
    public static IReadOnlyList<Artifact> Load(IEnumerable<string> paths)
    {
        var artifacts = new List<Artifact>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var path in paths)
        {
            foreach (var artifact in Load(path))
            {
                if (!seen.Add(artifact.Path))
                    throw new ArgumentException(
                        $"two inputs would upload the same name {artifact.Path}; pass their common folder instead"
                    );
                artifacts.Add(artifact);
            }
        }
        return artifacts;
    }

    public static IReadOnlyList<Artifact> Load(string path)
    {
        if (File.Exists(path))
            return [new Artifact(Path.GetFileName(path), File.ReadAllBytes(path))];
        if (!Directory.Exists(path))
            throw new FileNotFoundException($"no such file or folder: {path}", path);
        return Directory
            .EnumerateFiles(path, "*", SearchOption.AllDirectories)
            .Select(f => Path.GetRelativePath(path, f).Replace(Path.DirectorySeparatorChar, '/'))
            .Where(rel => !rel.Split('/').Any(part => part.StartsWith('.'))) // .DS_Store, .git and the like
            .Order(StringComparer.Ordinal)
            .Select(rel => new Artifact(rel, File.ReadAllBytes(Path.Combine(path, rel))))
            .ToList();
    }
}
