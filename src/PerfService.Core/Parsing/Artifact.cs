namespace PerfService.Core.Parsing;

/// <summary>One uploaded file: its path relative to what the user uploaded (a criterion tree keeps its
/// folders).</summary>
public sealed record Artifact(string Path, ReadOnlyMemory<byte> Content);
