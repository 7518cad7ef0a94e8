using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing.Criterion;

/// <summary>
/// Rust benchmarks: criterion's <c>target/criterion</c> tree, <c>cargo criterion --message-format=json</c> NDJSON,
/// and the one-line-per-benchmark <c>bench:</c> format shared by libtest (<c>cargo bench</c>) and criterion's
/// <c>--output-format bencher</c>. Criterion's default human-readable output is rejected with advice: its layout is
/// not a stable interface and it rounds every number to 4-5 digits.
/// </summary>
public sealed class CriterionParser : IResultParser
{
    public string Format => "criterion";

    public ParseResult Parse(IReadOnlyList<Artifact> files)
    {
        var sink = new ResultSink(Format);
        var tree = files.Where(f => CriterionShape.IsTreeFile(f.Path)).ToList();
        if (tree.Count > 0)
            CriterionTree.Parse(tree, sink);
        foreach (var file in files.Where(f => !CriterionShape.IsTreeFile(f.Path)))
        {
            var bytes = Utf8.WithoutBom(file.Content);
            if (Utf8.IsBlank(bytes.Span))
                throw new ParseException(file.Path, null, "the file is empty");
            if (Utf8.FirstSignificant(bytes.Span) == (byte)'{')
                CargoCriterionMessages.Parse(file, sink);
            else
                BenchLines.Parse(file, sink);
        }
        return sink.ToResult();
    }
}
