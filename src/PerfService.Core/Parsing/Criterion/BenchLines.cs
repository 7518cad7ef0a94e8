using PerfService.Core.Parsing.Common;
using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Criterion;

/// <summary>
/// <c>test NAME ... bench: 18,149 ns/iter (+/- 755)</c> lines, written by libtest (<c>cargo bench</c>) and by
/// criterion's
/// <c>--output-format bencher</c>. Everything else (warnings, "running N tests", ignored tests) is skipped. The
/// "+/-" figure is not kept: libtest prints max−min of its trimmed samples, criterion something else, and neither
/// is a standard deviation. A <c>... FAILED</c> line becomes a failed result carrying the panic message.
/// </summary>
internal static class BenchLines
{
    private const string BenchMarker = " ... bench:";
    private const string FailedMarker = " ... FAILED";

    public static void Parse(Artifact file, ResultSink sink)
    {
        var lines = TextLines.Read(Utf8.Decode(file.Content)).ToList();
        var panics = PanicMessages(lines);
        var found = 0;
        int? humanOutputLine = null;
        foreach (var line in lines)
        {
            var text = line.Text.TrimEnd();
            if (text.StartsWith("test ", StringComparison.Ordinal))
            {
                var bench = text.IndexOf(BenchMarker, StringComparison.Ordinal);
                if (bench > 5)
                {
                    var name = Check.Name(text[5..bench], file.Path, TextLines.Location(line.Number));
                    sink.Results.Add(ParseBench(name, text[(bench + BenchMarker.Length)..], file.Path, line.Number));
                    found++;
                }
                else if (text.EndsWith(FailedMarker, StringComparison.Ordinal) && text.Length > 5 + FailedMarker.Length)
                {
                    var name = Check.Name(text[5..^FailedMarker.Length], file.Path, TextLines.Location(line.Number));
                    var panic = panics.GetValueOrDefault(name);
                    sink.Results.Add(
                        new BenchmarkResult
                        {
                            Name = name,
                            Measure = Measures.Time,
                            Unit = "ns",
                            Error = panic is null ? "the benchmark FAILED" : $"the benchmark FAILED: {panic}",
                        }
                    );
                    found++;
                }
            }
            else if (
                humanOutputLine is null
                && text.Contains("time:", StringComparison.Ordinal)
                && text.TrimEnd().EndsWith(']')
            )
            {
                humanOutputLine = line.Number;
            }
        }
        if (found > 0)
            return;
        if (humanOutputLine is { } at)
            throw new ParseException(
                file.Path,
                TextLines.Location(at),
                "this is criterion's human-readable output, which is not a stable format and rounds every number; "
                    + "run `cargo bench -- --output-format bencher`, or `cargo criterion --message-format=json`, or upload the target/criterion directory"
            );
        throw new ParseException(
            file.Path,
            null,
            "no benchmark results found; expected lines like 'test name ... bench: 1,234 ns/iter (+/- 56)'"
        );
    }

    private static BenchmarkResult ParseBench(string name, string rest, string file, int lineNumber)
    {
        var location = TextLines.Location(lineNumber);
        var tokens = rest.Split([' ', '\t'], StringSplitOptions.RemoveEmptyEntries);
        if (tokens.Length < 2)
            throw new ParseException(
                file,
                location,
                "expected 'bench: <value> <unit>', e.g. 'bench: 1,234 ns/iter (+/- 56)'"
            );
        if (!Numbers.TryParseGrouped(tokens[0], out var value))
            throw new ParseException(
                file,
                location,
                $"'{tokens[0]}' is not a number; expected e.g. 'bench: 1,234 ns/iter'"
            );
        var unit = tokens[1];
        // ns/iter (and any time unit per iteration) is the time measure; anything else (cycles/iter, MS/s) keeps its
        // unit.
        var perIteration = unit.EndsWith("/iter", StringComparison.Ordinal) ? Numbers.NanosecondsPer(unit[..^5]) : null;
        if (perIteration is { } factor)
            return new BenchmarkResult
            {
                Name = name,
                Measure = Measures.Time,
                Unit = "ns",
                Value = Check.Value(value * factor, file, location, "the time", nonNegative: true),
            };
        return new BenchmarkResult
        {
            Name = name,
            Measure = unit,
            Unit = unit,
            Direction = Numbers.IsPerSecond(unit) ? Direction.HigherIsBetter : Direction.LowerIsBetter,
            Value = Check.Value(value, file, location, "the value", nonNegative: false),
        };
    }

    /// <summary>libtest prints "---- NAME stdout ----" then the panic line for every failed test.</summary>
    private static Dictionary<string, string> PanicMessages(List<TextLines.Line> lines)
    {
        var result = new Dictionary<string, string>(StringComparer.Ordinal);
        for (var i = 0; i < lines.Count; i++)
        {
            var t = lines[i].Text.Trim();
            if (
                !t.StartsWith("---- ", StringComparison.Ordinal)
                || !t.EndsWith(" stdout ----", StringComparison.Ordinal)
                || t.Length <= 17
            )
                continue;
            var name = t[5..^12].Trim();
            var message = lines.Skip(i + 1).Select(l => l.Text.Trim()).FirstOrDefault(l => l.Length > 0);
            if (message is not null && !message.StartsWith("----", StringComparison.Ordinal))
                result.TryAdd(name, message);
        }
        return result;
    }
}
