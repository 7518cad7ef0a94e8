using System.Text;
using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing.Go;

/// <summary>
/// <c>go test -bench</c> output, as text or as <c>go test -json</c> events. Name = pkg + "." + benchmark name without
/// the GOMAXPROCS suffix (so equal names in two packages stay apart), Job = "procs=N". Repeats (-count) of one
/// benchmark, in one file or several, are the samples of one series.
/// </summary>
public sealed class GoBenchParser : IResultParser
{
    public string Format => "gobench";

    public ParseResult Parse(IReadOnlyList<Artifact> files)
    {
        var sink = new ResultSink(Format);
        var collector = new GoBenchCollector();
        foreach (var file in files)
        {
            var bytes = Utf8.WithoutBom(file.Content);
            if (Utf8.IsBlank(bytes.Span))
                throw new ParseException(file.Path, null, "the file is empty");
            var found =
                Utf8.FirstSignificant(bytes.Span) == (byte)'{'
                    ? ReadJsonEvents(file, collector, sink)
                    : GoBenchText.Read(Utf8.Decode(file.Content), file.Path, null, TextLines.Location, collector, sink);
            if (found == 0)
                throw new ParseException(
                    file.Path,
                    null,
                    "no benchmark results found; expected lines like 'BenchmarkName-8  1000  123.4 ns/op' (go test -bench)"
                );
        }
        collector.Emit(sink);
        return sink.ToResult();
    }

    /// <summary>
    /// <c>go test -json</c>: benchmark lines arrive in "output" events, and a line may be split across events
    /// ("BenchmarkX-8 \t" then "1000\t 12 ns/op\n"), so the output is joined per package before it is read as text.
    /// </summary>
    private static int ReadJsonEvents(Artifact file, GoBenchCollector collector, ResultSink sink)
    {
        var outputs = new Dictionary<string, StringBuilder>(StringComparer.Ordinal);
        var order = new List<string>();
        var skipped = 0;
        foreach (var line in TextLines.Read(Utf8.Decode(file.Content)))
        {
            if (string.IsNullOrWhiteSpace(line.Text))
                continue;
            if (!line.Text.TrimStart().StartsWith('{'))
            {
                skipped++; // stderr mixed in (2>&1): build errors, "FAIL pkg [build failed]"
                continue;
            }
            using var document = JsonInput.Parse(Encoding.UTF8.GetBytes(line.Text), file.Path, line.Number - 1);
            var e = new JsonAtPath(document.RootElement, $"line {line.Number}, $", file.Path);
            if (!e.IsObject)
                throw e.Error("expected a go test -json event object");
            if (e.OptionalString("Action") != "output" || e.OptionalString("Output") is not { } output)
                continue;
            var package = e.OptionalString("Package") ?? "";
            if (!outputs.TryGetValue(package, out var buffer))
            {
                outputs[package] = buffer = new StringBuilder();
                order.Add(package);
            }
            buffer.Append(output);
        }
        if (skipped > 0)
            sink.Warnings.Add($"{file.Path}: skipped {skipped} non-JSON line(s) in go test -json output");
        var found = 0;
        foreach (var package in order)
        {
            var pkg = package.Length == 0 ? null : package;
            found += GoBenchText.Read(
                outputs[package].ToString(),
                file.Path,
                pkg,
                n => $"output of package {pkg ?? "(none)"}, line {n}",
                collector,
                sink
            );
        }
        return found;
    }
}
