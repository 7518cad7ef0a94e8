using System.Text.Json;
using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing.Criterion;

/// <summary>
/// Rust benchmark output: criterion's <c>target/criterion</c> tree, cargo-criterion's JSON messages, and
/// <c>bench:</c> lines (libtest, criterion's bencher format); criterion's human output is recognised to be refused
/// with advice.
/// </summary>
internal sealed class CriterionShape : IFormatShape
{
    public string Format => FormatDetector.Criterion;

    private static readonly string[] _treeFiles =
    [
        "benchmark.json",
        "estimates.json",
        "sample.json",
        "tukey.json",
        "raw.csv",
    ];
    private static readonly string[] _reportAssets = [".svg", ".html", ".css", ".js", ".png", ".gif"];

    // The header of criterion 0.3's raw.csv (0.4 and 0.5 write it with the csv_output feature).
    private const string RawCsvHeader =
        "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count";

    /// <summary>
    /// The tree: every folder holding a benchmark.json or estimates.json of criterion's is one of a benchmark's
    /// measurement folders (new/, base/, change/, saved baselines), and all of criterion's files in it belong to the
    /// tree
    /// (raw.csv and tukey.json too, which the parser does not read). HTML-report assets belong to it when they sit in
    /// a <c>report/</c> folder of the tree.
    /// </summary>
    public IEnumerable<FileView> ClaimStructure(IReadOnlyList<FileView> files)
    {
        var measurements = files
            .Where(f => f.Name is "benchmark.json" or "estimates.json" && Claims(f))
            .Select(f => f.Directory)
            .ToHashSet(StringComparer.Ordinal);
        if (measurements.Count == 0)
            return [];
        var benchmarks = measurements.Select(d => d.LastIndexOf('/') is var i and >= 0 ? d[..i] : "").ToList();
        return files.Where(f =>
            (measurements.Contains(f.Directory) && _treeFiles.Contains(f.Name, StringComparer.Ordinal))
            || (IsReportAsset(f.Name) && ReportOwner(f.Path) is { } owner && benchmarks.Any(b => Within(b, owner)))
        );
    }

    public bool Claims(FileView file)
    {
        if (file.Document is { } root)
        {
            if (root.ValueKind == JsonValueKind.Array)
                return file.Name is "sample.json" or "tukey.json"; // 0.2 samples, tukey fences
            if (file.Has("reason", JsonValueKind.String))
                return true; // one cargo-criterion message
            if (file.Has("group_id") || file.Has("full_id"))
                return true; // benchmark.json
            if (file.Has("iters") && file.Has("times"))
                return true; // sample.json
            foreach (var key in new[] { "mean", "Mean", "median", "Median" }) // estimates.json, change/estimates.json
                if (
                    root.ValueKind == JsonValueKind.Object
                    && root.TryGetProperty(key, out var e)
                    && e.ValueKind == JsonValueKind.Object
                    && e.TryGetProperty("point_estimate", out _)
                )
                    return true;
            return false;
        }
        if (FileView.Has(file.FirstLine, "reason", JsonValueKind.String))
            return true; // cargo-criterion --message-format=json
        if (file.IsBrokenJson)
            return new[] { "\"reason\"", "\"point_estimate\"", "\"group_id\"", "\"sampling_mode\"" }.Any(k =>
                file.SniffText.Contains(k, StringComparison.Ordinal)
            );
        if (file.IsJson)
            return false;
        return file.Lines.Any(t =>
            (
                t.StartsWith("test ", StringComparison.Ordinal)
                && (
                    t.Contains(" ... bench:", StringComparison.Ordinal)
                    || t.EndsWith(" ... FAILED", StringComparison.Ordinal)
                )
            )
            || (t.Contains("time:", StringComparison.Ordinal) && t.Contains('[') && t.EndsWith(']')) // human output, refused with advice
            || t == RawCsvHeader
        );
    }

    /// <summary>A file belongs to a tree by its name (criterion fixes them) or as an HTML-report asset.</summary>
    public static bool IsTreeFile(string path)
    {
        var name = path[(path.Replace('\\', '/').LastIndexOf('/') + 1)..];
        return _treeFiles.Contains(name, StringComparer.Ordinal) || IsReportAsset(name);
    }

    private static bool IsReportAsset(string name) =>
        _reportAssets.Any(e => name.EndsWith(e, StringComparison.OrdinalIgnoreCase));

    /// <summary>The folder that holds the asset's nearest <c>report/</c> folder, or null when it is in none.</summary>
    private static string? ReportOwner(string path)
    {
        var segments = path.Split('/');
        for (var i = segments.Length - 2; i >= 0; i--)
            if (segments[i] == "report")
                return string.Join('/', segments[..i]);
        return null;
    }

    private static bool Within(string directory, string ancestor) =>
        ancestor.Length == 0 || directory == ancestor || directory.StartsWith(ancestor + "/", StringComparison.Ordinal);
}
