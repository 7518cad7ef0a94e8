using System.Text.Json;
using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing;

/// <summary>
/// Format names, and what to say about a file that no format claims (see <see cref="IFormatShape"/> for how formats are
/// recognised): empty, broken JSON without a hint of its format (the JSON error's position is the useful answer
/// then), a known format PerfService does not read, or nothing recognisable.
/// </summary>
internal static class FormatDetector
{
    public const string Bdn = "bdn",
        Criterion = "criterion",
        GoBench = "gobench",
        K6 = "k6",
        Json = "json",
        Counters = "counters";

    public static string Describe() =>
        "expected a BenchmarkDotNet JSON export or BenchmarkDotNet.Artifacts folder, a criterion target/criterion tree, cargo-criterion JSON messages or 'bench:' lines, "
        + "go test -bench output (text or -json), a k6 summary, a table of counters with units in its header (see COUNTER_TABLES.md), or PerfService generic JSON (see GENERIC_JSON.md)";

    public static ParseException Unrecognised(FileView file)
    {
        if (file.IsBlank)
            return new ParseException(file.File.Path, null, "the file is empty");
        if (file.Has("context") && file.Has("benchmarks"))
            return new ParseException(
                file.File.Path,
                null,
                "this is Google Benchmark JSON, which PerfService does not parse yet; convert it to PerfService generic JSON (GENERIC_JSON.md)"
            );
        if (file.IsBrokenJson)
            try
            {
                using (JsonInput.Parse(file.Bytes, file.File.Path)) { } // throws the JSON error with its line and byte
            }
            catch (ParseException e)
            {
                return e;
            }
        return new ParseException(file.File.Path, null, $"format not recognised; {Describe()}");
    }
}
