using System.Text.Json;
using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing.Go;

/// <summary><c>go test -bench</c> output: a log with benchmark result lines or its goos/goarch header, or
/// <c>go test -json</c> events.</summary>
internal sealed class GoBenchShape : IFormatShape
{
    public string Format => FormatDetector.GoBench;

    public bool Claims(FileView file)
    {
        if (file.Document is not null)
            return file.Has("Action", JsonValueKind.String); // a single event
        if (FileView.Has(file.FirstLine, "Action", JsonValueKind.String))
            return true;
        if (file.IsBrokenJson)
            return file.SniffText.Contains("\"Action\"", StringComparison.Ordinal);
        return !file.IsJson
            && file.Lines.Any(t =>
                IsResult(t)
                || t.StartsWith("goos: ", StringComparison.Ordinal)
                || t.StartsWith("goarch: ", StringComparison.Ordinal)
                || t.StartsWith("--- FAIL: Benchmark", StringComparison.Ordinal)
            );
    }

    /// <summary>"BenchmarkName-8  1000  123.4 ns/op": a name, an iteration count, then a number.</summary>
    private static bool IsResult(string line)
    {
        if (!line.StartsWith("Benchmark", StringComparison.Ordinal))
            return false;
        var fields = line.Split([' ', '\t'], 4, StringSplitOptions.RemoveEmptyEntries);
        return fields.Length >= 4
            && (fields[0].Length == 9 || !char.IsLower(fields[0][9]))
            && long.TryParse(fields[1], System.Globalization.NumberStyles.None, null, out _)
            && Numbers.TryParse(fields[2], out _);
    }
}
