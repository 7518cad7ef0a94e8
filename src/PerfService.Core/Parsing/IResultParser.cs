namespace PerfService.Core.Parsing;

/// <summary>
/// One harness format. Parsers are pure: bytes in, normalised results out, <see cref="ParseException"/> for anything
/// they cannot understand. They never do I/O, so the API, the agent and the CLI all share them.
/// </summary>
public interface IResultParser
{
    /// <summary>The format name used on the API (<c>bdn</c>, <c>criterion</c>, …).</summary>
    string Format { get; }

    /// <summary>Parses every file; all of them are expected to be in this parser's format.</summary>
    ParseResult Parse(IReadOnlyList<Artifact> files);
}
