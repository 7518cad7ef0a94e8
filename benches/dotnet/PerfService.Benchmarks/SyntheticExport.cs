using System.Text;
using System.Text.Json.Nodes;

namespace PerfService.Benchmarks;

/// <summary>A BenchmarkDotNet full export of N benchmarks, made by repeating a real one with distinct parameters.</summary>
public static class SyntheticExport
{
    public static byte[] Build(int benchmarks)
    {
        var fixture = Path.Combine(FindRepo(), "tests", "fixtures", "benchmarkdotnet", "newday-bdn0.15.8-params-servergc-report-full.json");
        var root = JsonNode.Parse(File.ReadAllText(fixture))!.AsObject();
        var template = root["Benchmarks"]!.AsArray().First(b => b?["Statistics"] is JsonObject)!;
        var list = new JsonArray();
        for (var i = 0; i < benchmarks; i++)
        {
            var copy = template.DeepClone().AsObject();
            copy["Parameters"] = $"Case={i}";
            copy["FullName"] = $"{copy["Type"]}.{copy["Method"]}(Case: {i})";
            list.Add(copy);
        }
        root["Benchmarks"] = list;
        return Encoding.UTF8.GetBytes(root.ToJsonString());
    }

    public static string FindRepo()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "PerfService.sln"))) return dir.FullName;
        throw new DirectoryNotFoundException("run from inside the PerfService checkout");
    }
}
