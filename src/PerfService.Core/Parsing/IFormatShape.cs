using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing;

/// <summary>
/// How a format is recognised, asked by auto-detection of every parser in <see cref="ResultParsers"/>. Each format
/// answers for itself, by the shape of what it writes; two formats claiming one well-formed file is a bug, which the
/// detection matrix test finds (every fixture is claimed by its own format and by no other). Only broken JSON, known
/// by nothing but its key names, may be claimed twice; the order of <see cref="ResultParsers.Formats"/> decides then.
/// </summary>
internal interface IFormatShape
{
    string Format { get; }

    /// <summary>
    /// The files that make up one of this format's structures in the whole input (a criterion <c>target/criterion</c>
    /// tree, a BenchmarkDotNet <c>BenchmarkDotNet.Artifacts</c> folder), files the parser does not read included: they
    /// belong to the structure, so no other format is asked about them. Asked before any single file.
    /// </summary>
    IEnumerable<FileView> ClaimStructure(IReadOnlyList<FileView> files) => [];

    /// <summary>True when this one file, outside any structure, has this format's shape.</summary>
    bool Claims(FileView file);
}
