using PerfService.Core.Parsing.Bdn;
using PerfService.Core.Parsing.Common;
using PerfService.Core.Parsing.Counters;
using PerfService.Core.Parsing.Criterion;
using PerfService.Core.Parsing.Generic;
using PerfService.Core.Parsing.Go;
using PerfService.Core.Parsing.K6;
using PerfService.Core.Results;

namespace PerfService.Core.Parsing;

/// <summary>
/// The one entry point for turning uploaded harness output into <see cref="BenchmarkResult"/>s. Pure: no I/O, no
/// clock. Anything that cannot be understood is a <see cref="ParseException"/> naming the file, the place and what
/// was expected; no other exception escapes for any input.
/// </summary>
public static class ResultParsers
{
    public const string Auto = "auto";

    // Each parser with its shape, so that a new format cannot be parsed without saying how it is recognised. The order
    // is the one of Formats, and decides only between formats that both recognise broken JSON by its key names.
    private static readonly (IResultParser Parser, IFormatShape Shape)[] _formats =
    [
        (new BenchmarkDotNetParser(), new BdnShape()),
        (new CriterionParser(), new CriterionShape()),
        (new GoBenchParser(), new GoBenchShape()),
        (new K6SummaryParser(), new K6Shape()),
        (new GenericJsonParser(), new GenericJsonShape()),
        (new CounterTableParser(), new CounterTableShape()),
    ];

    private static readonly IResultParser[] _parsers = [.. _formats.Select(f => f.Parser)];

    /// <summary>How every format is recognised, in the order of <see cref="Formats"/>.</summary>
    internal static IReadOnlyList<IFormatShape> Shapes { get; } = [.. _formats.Select(f => f.Shape)];

    /// <summary>Accepted values of the format argument: "auto" first, then one per parser.</summary>
    public static IReadOnlyList<string> Formats { get; } = [Auto, .. _parsers.Select(p => p.Format)];

    /// <summary>
    /// Parses the files. With "auto" each file's format is recognised by content; files of different formats may be
    /// mixed and their results are concatenated (the result's Format is then e.g. "bdn+gobench"). Files of a
    /// criterion tree are grouped by directory. When the same benchmark and measure appear twice (BDN's full and
    /// brief exports of one run uploaded together), the one with samples is kept and a warning says so.
    /// </summary>
    public static ParseResult Parse(IReadOnlyList<Artifact> files, string format = Auto)
    {
        ArgumentNullException.ThrowIfNull(files);
        if (files.Count == 0)
            throw new ParseException("(upload)", null, "no files were given");
        var name = (format ?? Auto).Trim().ToLowerInvariant();
        if (name == Auto)
        {
            var groups = Group(files);
            var parts = groups.Select(g => Parser(g.Key).Parse(g.Value)).ToList();
            return Deduplicate(ResultSink.Merge(string.Join("+", groups.Keys), parts));
        }
        var parser =
            _parsers.FirstOrDefault(p => p.Format == name)
            ?? throw new ParseException(
                files[0].Path,
                null,
                $"unknown format '{format}'; expected one of {string.Join(", ", Formats)}"
            );
        return Deduplicate(parser.Parse(files));
    }

    /// <summary>The format of the files by content: one of <see cref="Formats"/> (never "auto"), or several joined by
    /// '+' when the files differ. Throws a <see cref="ParseException"/> naming the first file not recognised.</summary>
    public static string Detect(IReadOnlyList<Artifact> files)
    {
        ArgumentNullException.ThrowIfNull(files);
        if (files.Count == 0)
            throw new ParseException("(upload)", null, "no files were given");
        return string.Join("+", Group(files).Keys);
    }

    private static IResultParser Parser(string format) => _parsers.First(p => p.Format == format);

    /// <summary>
    /// Files by detected format, in first-seen order. The shape of the whole input comes first: every format takes its
    /// structures (a criterion tree, a BenchmarkDotNet artifacts folder) with all their files, used or not; only the
    /// files left are recognised one by one. A file no format claims is an error that names it.
    /// </summary>
    internal static Dictionary<string, List<Artifact>> Group(IReadOnlyList<Artifact> files)
    {
        var views = files.Select(f => new FileView(f)).ToList();
        try
        {
            var formatOf = new Dictionary<FileView, string>();
            foreach (var shape in Shapes)
            foreach (var file in shape.ClaimStructure(views))
                formatOf.TryAdd(file, shape.Format);
            foreach (var file in views.Where(v => !formatOf.ContainsKey(v)))
                formatOf[file] =
                    Shapes.FirstOrDefault(s => s.Claims(file))?.Format ?? throw FormatDetector.Unrecognised(file);
            var groups = new Dictionary<string, List<Artifact>>(StringComparer.Ordinal);
            foreach (var file in views)
                (groups.TryGetValue(formatOf[file], out var list) ? list : groups[formatOf[file]] = []).Add(file.File);
            return groups;
        }
        finally
        {
            foreach (var view in views)
                view.Dispose();
        }
    }

    private static ParseResult Deduplicate(ParseResult result)
    {
        var kept = new Dictionary<(string Key, string Measure), int>(result.Results.Count);
        var results = new List<BenchmarkResult>(result.Results.Count);
        var duplicates = new List<string>();
        foreach (var r in result.Results)
        {
            var key = (r.Key, r.Measure);
            if (kept.TryAdd(key, results.Count))
            {
                results.Add(r);
                continue;
            }
            var index = kept[key];
            duplicates.Add($"{key.Key} ({r.Measure})");
            if ((r.Samples?.Count ?? -1) > (results[index].Samples?.Count ?? -1))
                results[index] = r;
        }
        if (duplicates.Count == 0)
            return result;
        // One warning, not one per measure: BDN's full + brief exports of a run duplicate every series.
        var shown = string.Join(", ", duplicates.Distinct().Take(3)) + (duplicates.Count > 3 ? ", …" : "");
        var warning =
            $"{duplicates.Count} result(s) appear more than once (same benchmark and measure, e.g. two exports of one run); kept the copy with the most samples: {shown}";
        return result with { Results = results, Warnings = [.. result.Warnings, warning] };
    }
}
