using System.Text;
using System.Text.Json;
using PerfService.Core.Parsing.Common;
using PerfService.Core.Parsing.Counters;
using PerfService.Core.Parsing.K6;

namespace PerfService.Core.Parsing;

/// <summary>
/// Recognises a file's format by its content (file names are only a hint for criterion's fixed tree names). A file
/// that is JSON-shaped but broken is still attributed when its keys give it away, so that the right parser reports
/// the exact place of the damage instead of a vague "unknown format".
/// </summary>
internal static class FormatDetector
{
    public const string Bdn = "bdn", Criterion = "criterion", GoBench = "gobench", K6 = "k6", Json = "json", Counters = "counters";

    /// <summary>The format of one file, or null when nothing is recognised. Throws for empty files and for JSON
    /// that is invalid and gives no hint of its format (the JSON error's position is the useful answer then).</summary>
    public static string? Detect(Artifact file)
    {
        var bytes = Utf8.WithoutBom(file.Content);
        if (Utf8.IsBlank(bytes.Span)) throw new ParseException(file.Path, null, "the file is empty");
        return Utf8.FirstSignificant(bytes.Span) is (byte)'{' or (byte)'[' ? DetectJson(file, bytes) : DetectText(Head(bytes));
    }

    // Recognising a format needs the first lines, not the whole file: a 250 MB upload is not decoded into a 500 MB
    // string (and split into lines) just to find it is nothing PerfService reads.
    private const int HeadBytes = 1024 * 1024;

    private static string Head(ReadOnlyMemory<byte> bytes) => Utf8.Decode(bytes.Length > HeadBytes ? bytes[..HeadBytes] : bytes);

    public static string Describe() =>
        "expected a BenchmarkDotNet JSON export, a criterion target/criterion tree, cargo-criterion JSON messages or 'bench:' lines, "
        + "go test -bench output (text or -json), a k6 summary, a table of counters with units in its header (see COUNTER_TABLES.md), or PerfService generic JSON (see GENERIC_JSON.md)";

    private static string? DetectJson(Artifact file, ReadOnlyMemory<byte> bytes)
    {
        if (JsonInput.TryParse(bytes, out var document))
            using (document) return Classify(document!.RootElement, file.Path, whole: true);

        // Several JSON lines: cargo-criterion messages or go test -json events.
        var text = Head(bytes);
        var firstLine = text.TrimStart().Split('\n', 2)[0];
        if (JsonInput.TryParse(Encoding.UTF8.GetBytes(firstLine), out var first))
            using (first)
                if (Classify(first!.RootElement, file.Path, whole: false) is { } format) return format;

        var sniffed = Sniff(text.Length > 65536 ? text[..65536] : text);
        if (sniffed is not null) return sniffed;
        using (JsonInput.Parse(bytes, file.Path)) { } // throws the JSON error with its line and byte
        return null;
    }

    private static string? Classify(JsonElement root, string path, bool whole)
    {
        var name = path.Replace('\\', '/')[(path.Replace('\\', '/').LastIndexOf('/') + 1)..];
        if (root.ValueKind == JsonValueKind.Array)
            return whole && name is "sample.json" or "tukey.json" ? Criterion : null; // criterion 0.2 samples, tukey fences
        if (root.ValueKind != JsonValueKind.Object) return null;
        bool Has(string key) => root.TryGetProperty(key, out _);
        bool Is(string key, JsonValueKind kind) => root.TryGetProperty(key, out var v) && v.ValueKind == kind;

        if (Is("reason", JsonValueKind.String)) return Criterion;
        if (Is("Action", JsonValueKind.String)) return GoBench;
        if (!whole) return null;
        if (Has("Benchmarks") && (Has("HostEnvironmentInfo") || Has("Title"))) return Bdn;
        if (root.TryGetProperty("metrics", out var metrics) && metrics.ValueKind == JsonValueKind.Object && LooksLikeK6(root, metrics)) return K6;
        if (Is("results", JsonValueKind.Array)) return Json;
        if (Has("group_id") || Has("full_id")) return Criterion; // benchmark.json
        if (Has("iters") && Has("times")) return Criterion; // sample.json
        foreach (var key in new[] { "mean", "Mean", "median", "Median" }) // estimates.json, change/estimates.json
            if (root.TryGetProperty(key, out var e) && e.ValueKind == JsonValueKind.Object && e.TryGetProperty("point_estimate", out _)) return Criterion;
        if (Has("context") && Has("benchmarks"))
            throw new ParseException(path, null, "this is Google Benchmark JSON, which PerfService does not parse yet; convert it to PerfService generic JSON (GENERIC_JSON.md)");
        return null;
    }

    private static bool LooksLikeK6(JsonElement root, JsonElement metrics)
    {
        if (root.TryGetProperty("root_group", out _)) return true;
        foreach (var metric in metrics.EnumerateObject())
        {
            if (K6Rules.WellKnown.Contains(K6Rules.BaseName(metric.Name))) return true;
            if (metric.Value.ValueKind == JsonValueKind.Object && metric.Value.TryGetProperty("type", out _) && metric.Value.TryGetProperty("contains", out _)) return true;
        }
        return false;
    }

    /// <summary>Key names typical of each JSON format, for files too broken to parse.</summary>
    private static string? Sniff(string text)
    {
        if (text.Contains("\"HostEnvironmentInfo\"", StringComparison.Ordinal) || text.Contains("\"Benchmarks\"", StringComparison.Ordinal)) return Bdn;
        if (text.Contains("\"reason\"", StringComparison.Ordinal) || text.Contains("\"point_estimate\"", StringComparison.Ordinal)
            || text.Contains("\"group_id\"", StringComparison.Ordinal) || text.Contains("\"sampling_mode\"", StringComparison.Ordinal)) return Criterion;
        if (text.Contains("\"Action\"", StringComparison.Ordinal)) return GoBench;
        if (text.Contains("\"metrics\"", StringComparison.Ordinal)) return K6;
        if (text.Contains("\"results\"", StringComparison.Ordinal)) return Json;
        return null;
    }

    private static string? DetectText(string text)
    {
        string? weak = null;
        foreach (var line in TextLines.Read(text))
        {
            var t = line.Text.TrimEnd();
            if (IsGoResult(t) || t.StartsWith("goos: ", StringComparison.Ordinal) || t.StartsWith("goarch: ", StringComparison.Ordinal)
                || t.StartsWith("--- FAIL: Benchmark", StringComparison.Ordinal)) return GoBench;
            if (t.StartsWith("test ", StringComparison.Ordinal)
                && (t.Contains(" ... bench:", StringComparison.Ordinal) || t.EndsWith(" ... FAILED", StringComparison.Ordinal))) return Criterion;
            if (t.Contains("time:", StringComparison.Ordinal) && t.Contains('[') && t.EndsWith(']')) return Criterion; // human output, rejected with advice
            if (weak is null && (t.Contains("BenchmarkDotNet", StringComparison.Ordinal) || t.StartsWith("Method,", StringComparison.Ordinal)
                || t.StartsWith("Method;", StringComparison.Ordinal) || t.StartsWith("| Method", StringComparison.Ordinal))) weak = Bdn;
        }
        if (weak is not null) return weak; // BDN's CSV/markdown/HTML/log: routed to the BDN parser, which explains what to upload instead
        // Only after every other text format: a header row with units (or a unit column) over rows of as many cells.
        return CounterTableText.Looks(text) ? Counters : null;
    }

    private static bool IsGoResult(string line)
    {
        if (!line.StartsWith("Benchmark", StringComparison.Ordinal)) return false;
        var fields = line.Split([' ', '\t'], 4, StringSplitOptions.RemoveEmptyEntries);
        return fields.Length >= 4 && (fields[0].Length == 9 || !char.IsLower(fields[0][9]))
            && long.TryParse(fields[1], System.Globalization.NumberStyles.None, null, out _)
            && Numbers.TryParse(fields[2], out _);
    }
}
