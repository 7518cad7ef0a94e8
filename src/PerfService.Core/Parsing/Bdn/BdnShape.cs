using System.Text.Json;
using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing.Bdn;

/// <summary>
/// BenchmarkDotNet's output: a <c>BenchmarkDotNet.Artifacts</c> folder (<c>results/</c> with every exporter's
/// <c>*-report*</c> files, the run's <c>*.log</c> beside it), or single exports and reports.
/// </summary>
internal sealed class BdnShape : IFormatShape
{
    public string Format => FormatDetector.Bdn;

    /// <summary>A <c>results</c> folder holding an export or report this format recognises: every exporter's file in it
    /// and the logs in its parent folder, which is the artifacts folder.</summary>
    public IEnumerable<FileView> ClaimStructure(IReadOnlyList<FileView> files)
    {
        var results = files
            .Where(f => IsResultsFolder(f.Directory) && IsExporterFile(f.Name) && Claims(f))
            .Select(f => f.Directory)
            .ToHashSet(StringComparer.Ordinal);
        var artifacts = results.Select(Parent).ToHashSet(StringComparer.Ordinal);
        return files.Where(f =>
            (results.Contains(f.Directory) && IsExporterFile(f.Name))
            || (artifacts.Contains(f.Directory) && f.Name.EndsWith(".log", StringComparison.Ordinal) && Claims(f))
        );
    }

    public bool Claims(FileView file)
    {
        if (file.Document is { } root)
            return root.ValueKind == JsonValueKind.Object
                && file.Has("Benchmarks")
                && (file.Has("HostEnvironmentInfo") || file.Has("Title"));
        if (file.IsBrokenJson)
            return file.SniffText.Contains("\"HostEnvironmentInfo\"", StringComparison.Ordinal)
                || file.SniffText.Contains("\"Benchmarks\"", StringComparison.Ordinal);
        // Reports and logs: the version banner every one of them prints, or the CSV/markdown table's own header.
        return !file.IsJson
            && file.Lines.Any(l =>
                l.Contains("BenchmarkDotNet v", StringComparison.Ordinal)
                || l.Contains("BenchmarkDotNet=v", StringComparison.Ordinal)
                || IsSummaryHeader(l)
            );
    }

    /// <summary>"Method,Job,…,Mean,Error" (CSV, also ';'-separated) or "| Method | … | Mean |" (markdown).</summary>
    private static bool IsSummaryHeader(string line)
    {
        var cells = line.Split(
                line.TrimStart().StartsWith('|') ? '|'
                : line.Contains(';') ? ';'
                : ','
            )
            .Select(c => c.Trim())
            .Where(c => c.Length > 0)
            .ToList();
        return cells.Count > 2 && cells[0] == "Method" && cells.Contains("Mean");
    }

    private static bool IsResultsFolder(string directory) =>
        directory == "results" || directory.EndsWith("/results", StringComparison.Ordinal);

    // Every exporter names its file "<benchmark type>-report…" (-report.csv, -report-full.json, -report-github.md,
    // -report.html, -report-brief.json…); the measurements exporter "…-measurements.csv".
    private static bool IsExporterFile(string name) =>
        name.Contains("-report", StringComparison.Ordinal)
        || name.EndsWith("-measurements.csv", StringComparison.Ordinal);

    private static string Parent(string directory) =>
        directory.LastIndexOf('/') is var i and >= 0 ? directory[..i] : "";
}
