using PerfService.Core.Results;

namespace PerfService.Core.Parsing;

/// <summary>What a parser got out of a set of artifacts.</summary>
public sealed record ParseResult(
    string Format,
    IReadOnlyList<BenchmarkResult> Results,
    IReadOnlyDictionary<string, string> Environment,
    IReadOnlyList<string> Warnings
);
