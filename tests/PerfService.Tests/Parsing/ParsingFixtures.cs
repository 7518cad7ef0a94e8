using System.Text;
using PerfService.Core.Parsing;
using PerfService.Core.Results;
using Xunit.Sdk;

namespace PerfService.Tests.Parsing;

/// <summary>Loads tests/fixtures as <see cref="Artifact"/>s the way the API will hand them to the parsers.</summary>
internal static class ParsingFixtures
{
    public static Artifact File(string folder, string name) => new(name, System.IO.File.ReadAllBytes(TestPaths.Fixture(folder, name)));

    /// <summary>A criterion directory fixture as an upload: every file, path relative to the tree root, '/'-separated.</summary>
    public static IReadOnlyList<Artifact> Tree(string folder, string directory)
    {
        var root = TestPaths.Fixture(folder, directory);
        return Directory.GetFiles(root, "*", SearchOption.AllDirectories)
            .Order(StringComparer.Ordinal)
            .Select(f => new Artifact(Path.GetRelativePath(root, f).Replace('\\', '/'), System.IO.File.ReadAllBytes(f)))
            .ToList();
    }

    /// <summary>"folder/name": a single file, or a whole directory fixture (criterion trees).</summary>
    public static IReadOnlyList<Artifact> Load(string relative)
    {
        var parts = relative.Split('/', 2);
        return Directory.Exists(TestPaths.Fixture(parts[0], parts[1])) ? Tree(parts[0], parts[1]) : [File(parts[0], parts[1])];
    }

    /// <summary>Every fixture unit (file, or criterion tree directory), as "folder/name".</summary>
    public static IEnumerable<string> AllUnits()
    {
        foreach (var folder in Directory.GetDirectories(TestPaths.Fixtures).Order(StringComparer.Ordinal))
        {
            var name = Path.GetFileName(folder);
            // Profiles are not harness results: Profiles/ tests them with their own readers.
            if (name == "profiles") continue;
            foreach (var file in Directory.GetFiles(folder).Order(StringComparer.Ordinal)) yield return $"{name}/{Path.GetFileName(file)}";
            foreach (var dir in Directory.GetDirectories(folder).Order(StringComparer.Ordinal)) yield return $"{name}/{Path.GetFileName(dir)}";
        }
    }

    // Each fixture folder holds one format's output; "googlebenchmark" holds a format PerfService does not read.
    private static readonly Dictionary<string, string> _formatOfFolder = new()
    {
        ["benchmarkdotnet"] = "bdn", ["criterion"] = "criterion", ["gobench"] = "gobench", ["k6"] = "k6", ["counters"] = "counters", ["generic"] = "json",
        ["googlebenchmark"] = "",
    };

    /// <summary>The format auto-detection must give a fixture unit: its folder's, or for a unit of "mixed/" (several
    /// harnesses' outputs in one directory) the formats its name starts with ("bdn+criterion-…"); "" for none.</summary>
    public static string ExpectedFormat(string unit)
    {
        var (folder, name) = (unit.Split('/')[0], unit.Split('/', 2)[1]);
        return folder == "mixed" ? name.Split('-')[0] : _formatOfFolder[folder];
    }

    public static Artifact Text(string path, string content) => new(path, Encoding.UTF8.GetBytes(content));

    public static BenchmarkResult Single(ParseResult result, string key, string measure = Measures.Time) =>
        Assert.Single(result.Results, r => r.Key == key && r.Measure == measure);

    /// <summary>What every parse result must satisfy, whatever the input: finite numbers, and failures without values.</summary>
    public static void AssertSane(ParseResult result, string context)
    {
        foreach (var r in result.Results)
        {
            var where = $"{context}: {r.Key} ({r.Measure})";
            if (string.IsNullOrEmpty(r.Name) || r.Measure is null || r.Unit is null) throw new XunitException($"{where}: incomplete identity");
            if (r.Failed && r.Value is not null) throw new XunitException($"{where}: failed result with a value");
            Finite(r.Value, where);
            foreach (var s in r.Samples ?? []) Finite(s, where);
            if (r.Summary is { } s2)
                foreach (var v in new[] { s2.Mean, s2.Median, s2.StdDev, s2.Min, s2.Max, s2.CiLower, s2.CiUpper, s2.CiLevel }) Finite(v, where);
        }
    }

    private static void Finite(double? value, string where)
    {
        if (value is { } v && !double.IsFinite(v)) throw new XunitException($"{where}: non-finite value {v}");
    }
}
