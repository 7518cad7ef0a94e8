using System.Globalization;
using System.Text;
using PerfService.Core.Parsing;

namespace PerfService.LoadTest;

/// <summary>One upload's files, the format to declare, the suite it belongs to and how many results the service must store.</summary>
public sealed record Payload(string Label, string Suite, string Format, IReadOnlyList<Artifact> Files, int ExpectedResults);

/// <summary>
/// What the simulated agents post, made once before the clock starts so that generating it costs the load generator
/// nothing during the run: generic-JSON files of MIN–MAX results with N samples each, and every real harness output in
/// tests/fixtures that the parser accepts on its own (its expected count is what the same parser finds).
/// </summary>
public static class Payloads
{
    public static IReadOnlyList<Payload> Generic(LoadOptions o, int count = 32)
    {
        var random = new Random(o.Seed);
        var list = new List<Payload>(count);
        for (var p = 0; p < count; p++)
        {
            var results = count == 1 ? o.MinResults : o.MinResults + (o.MaxResults - o.MinResults) * p / (count - 1);
            var sb = new StringBuilder(results * (o.Samples * 9 + 120));
            sb.Append("{\"environment\":{\"harness\":\"perf-loadtest\",\"payload\":").Append(p).Append("},\"results\":[");
            for (var i = 0; i < results; i++)
            {
                if (i > 0) sb.Append(',');
                var center = 50 + 13.7 * i;
                sb.Append("{\"benchmark\":\"Load.Workload").Append(i % 25).Append(".Op").Append(i)
                    .Append("\",\"parameters\":{\"size\":").Append(1 << (i % 10)).Append(",\"mode\":\"").Append(i % 3 == 0 ? "cold" : "warm")
                    .Append("\"},\"unit\":\"ns\",\"samples\":[");
                for (var s = 0; s < o.Samples; s++)
                {
                    if (s > 0) sb.Append(',');
                    sb.Append((center * (1 + 0.04 * (2 * random.NextDouble() - 1))).ToString("0.###", CultureInfo.InvariantCulture));
                }
                sb.Append("]}");
            }
            sb.Append("]}");
            list.Add(new Payload($"generic-{results}", "load-generic", "json",
                [new Artifact("results.json", Encoding.UTF8.GetBytes(sb.ToString()))], results));
        }
        return list;
    }

    /// <summary>Each file, and each folder (a criterion tree), under fixtures/&lt;harness&gt;/ that parses alone.</summary>
    public static IReadOnlyList<Payload> Fixtures(string? root, Action<string> log)
    {
        if (root is null || !Directory.Exists(root)) return [];
        var list = new List<Payload>();
        foreach (var harness in Directory.EnumerateDirectories(root).Order(StringComparer.Ordinal))
        {
            foreach (var entry in Directory.EnumerateFileSystemEntries(harness).Order(StringComparer.Ordinal))
            {
                IReadOnlyList<Artifact> files = Directory.Exists(entry)
                    ? Directory.EnumerateFiles(entry, "*", SearchOption.AllDirectories).Order(StringComparer.Ordinal)
                        .Select(f => new Artifact(Path.GetRelativePath(entry, f).Replace('\\', '/'), File.ReadAllBytes(f))).ToList()
                    : [new Artifact(Path.GetFileName(entry), File.ReadAllBytes(entry))];
                if (files.Count == 0) continue;
                try
                {
                    var parsed = ResultParsers.Parse(files);
                    var clash = parsed.Results.GroupBy(r => (r.Key, r.Measure)).Any(g => g.Count() > 1);
                    if (parsed.Results.Count == 0 || clash) continue;
                    var name = Path.GetFileName(entry);
                    list.Add(new Payload($"fixture {Path.GetFileName(harness)}/{name}", "fixture-" + Path.GetFileName(harness), "auto", files, parsed.Results.Count));
                }
                catch (ParseException)
                {
                    // Not every fixture stands alone (some are refused on purpose): only those the service accepts are posted.
                }
            }
        }
        log($"fixtures: {list.Count} real harness outputs accepted by the parser ({string.Join(", ", list.Select(p => $"{p.Label.Split('/')[^1]}: {p.ExpectedResults}").Take(6))}{(list.Count > 6 ? ", …" : "")})");
        return list;
    }
}
