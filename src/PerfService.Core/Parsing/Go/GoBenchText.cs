using PerfService.Core.Parsing.Common;
using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Go;

/// <summary>
/// The Go benchmark text format (golang.org/design/14313-benchmark-format): "key: value" configuration lines,
/// "BenchmarkName-N  iterations  value unit [value unit…]" result lines, and anything else ignored (prose, PASS, ok,
/// # comments, test logs). Lines that look like results but do not parse are skipped with a warning, like benchstat;
/// values that parse but are NaN, infinite, absurd or negative where impossible are errors.
/// </summary>
internal static class GoBenchText
{
    private static readonly char[] _separators = [' ', '\t'];

    /// <returns>How many result or failure lines were read.</returns>
    public static int Read(
        string text,
        string file,
        string? package,
        Func<int, string> location,
        GoBenchCollector collector,
        ResultSink sink
    )
    {
        var found = 0;
        var lines = TextLines.Read(text).ToList();
        for (var i = 0; i < lines.Count; i++)
        {
            var line = lines[i].Text.TrimEnd();
            if (line.StartsWith("Benchmark", StringComparison.Ordinal))
            {
                if (ReadResult(line, file, package, location(lines[i].Number), collector, sink))
                    found++;
            }
            else if (line.StartsWith("--- FAIL: Benchmark", StringComparison.Ordinal))
            {
                var (name, procs) = SplitProcs(line["--- FAIL: ".Length..].Trim().Split(_separators)[0]);
                // The failure's log lines follow, indented; the first is usually the reason (file.go:12: message).
                var detail =
                    i + 1 < lines.Count && lines[i + 1].Text.StartsWith("    ", StringComparison.Ordinal)
                        ? lines[i + 1].Text.Trim()
                        : null;
                collector.Fail(
                    package,
                    name,
                    procs,
                    detail is null ? "go test reported --- FAIL" : $"go test reported --- FAIL: {detail}"
                );
                found++;
            }
            else if (line.StartsWith("Unit ", StringComparison.Ordinal))
            {
                ReadUnitMetadata(line, collector);
            }
            else if (IsConfiguration(line, out var key, out var value))
            {
                switch (key)
                {
                    case "pkg":
                        package = value;
                        break;
                    case "goos":
                        sink.Environment("os", value, file);
                        break;
                    case "goarch":
                        sink.Environment("arch", value, file);
                        break;
                    case "cpu":
                        sink.Environment("cpu", value, file);
                        break;
                }
            }
        }
        return found;
    }

    private static bool ReadResult(
        string line,
        string file,
        string? package,
        string location,
        GoBenchCollector collector,
        ResultSink sink
    )
    {
        var fields = line.Split(_separators, StringSplitOptions.RemoveEmptyEntries);
        // "Benchmark" must be followed by nothing or a non-lowercase rune ("Benchmarks are…" is prose).
        if (fields[0].Length > 9 && char.IsLower(fields[0][9]))
            return false;
        if (fields.Length < 2 || !long.TryParse(fields[1], System.Globalization.NumberStyles.None, null, out _))
            return false;
        if (fields.Length < 4 || fields.Length % 2 != 0)
        {
            sink.Warnings.Add($"{file} at {location}: ignored a benchmark line without complete 'value unit' pairs");
            return false;
        }
        var values = new double[(fields.Length - 2) / 2];
        for (var p = 0; p < values.Length; p++)
        {
            if (!Numbers.TryParse(fields[2 + 2 * p], out values[p]))
            {
                sink.Warnings.Add(
                    $"{file} at {location}: ignored a benchmark line: '{fields[2 + 2 * p]}' is not a number"
                );
                return false;
            }
            var unit = fields[3 + 2 * p];
            Check.Value(values[p], file, location, $"the {unit} value", GoBenchCollector.IsNonNegative(unit));
        }
        var (name, procs) = SplitProcs(fields[0]);
        for (var p = 0; p < values.Length; p++)
            collector.Add(package, name, procs, fields[3 + 2 * p], values[p]);
        return true;
    }

    /// <summary>
    /// "BenchmarkZipInt/raw-small-10" is name "BenchmarkZipInt/raw-small" at GOMAXPROCS 10: split on the LAST '-' and
    /// only when what follows is all digits. (Go omits the suffix at GOMAXPROCS=1, so a sub-benchmark literally
    /// named "size-100" run with one proc is indistinguishable; the format cannot tell.)
    /// </summary>
    internal static (string Name, string? Procs) SplitProcs(string full)
    {
        var dash = full.LastIndexOf('-');
        if (dash <= 0 || dash == full.Length - 1)
            return (full, null);
        foreach (var c in full.AsSpan(dash + 1))
            if (!char.IsAsciiDigit(c))
                return (full, null);
        return (full[..dash], full[(dash + 1)..]);
    }

    /// <summary>benchfmt configuration: a key starting with a lowercase letter, no spaces, then ':' and a
    /// value.</summary>
    private static bool IsConfiguration(string line, out string key, out string value)
    {
        key = value = "";
        var colon = line.IndexOf(':');
        if (colon <= 0 || !char.IsLower(line[0]))
            return false;
        for (var i = 0; i < colon; i++)
            if (char.IsWhiteSpace(line[i]) || char.IsUpper(line[i]))
                return false;
        key = line[..colon];
        value = line[(colon + 1)..].Trim();
        return true;
    }

    private static void ReadUnitMetadata(string line, GoBenchCollector collector)
    {
        var fields = line.Split(_separators, StringSplitOptions.RemoveEmptyEntries);
        if (fields.Length < 3)
            return;
        foreach (var f in fields.Skip(2))
        {
            if (f == "better=higher")
                collector.Declare(fields[1], Direction.HigherIsBetter);
            else if (f == "better=lower")
                collector.Declare(fields[1], Direction.LowerIsBetter);
        }
    }
}
