using PerfService.Core.Contracts;
using PerfService.Core.Parsing;

namespace PerfService.Ingestion;

/// <summary>Everything one stored run is made of, resolved and parsed, ready for the one transaction.</summary>
public sealed record RunWrite(
    long ProjectId,
    string ProjectSlug,
    long ProfileId,
    RunMetadata Metadata,
    string? IdempotencyKey,
    IReadOnlyList<Artifact> Files,
    ParseResult Parsed,
    RunPoster Poster,
    bool DeclaresProjectTargets
);
