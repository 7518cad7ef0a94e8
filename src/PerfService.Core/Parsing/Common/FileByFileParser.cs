using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Common;

/// <summary>
/// A format whose files stand alone: each is parsed on its own into one sink. Formats that pair files
/// (BenchmarkDotNet's
/// exports and logs, criterion's tree, go's interleaved lines) implement <see cref="IResultParser"/> themselves.
/// </summary>
public abstract class FileByFileParser : IResultParser
{
    public abstract string Format { get; }

    public ParseResult Parse(IReadOnlyList<Artifact> files)
    {
        var sink = new ResultSink(Format);
        foreach (var file in files)
            ParseFile(file, sink);
        return sink.ToResult();
    }

    private protected abstract void ParseFile(Artifact file, ResultSink sink);
}

/// <summary>A stand-alone JSON document per file, read with the input limits of <see cref="JsonInput"/>.</summary>
public abstract class JsonFileParser : FileByFileParser
{
    private protected sealed override void ParseFile(Artifact file, ResultSink sink)
    {
        using var document = JsonInput.Parse(file);
        ParseRoot(JsonAtPath.Root(document, file.Path), file, sink);
    }

    private protected abstract void ParseRoot(JsonAtPath root, Artifact file, ResultSink sink);
}
