using PerfService.Core.Contracts;
using PerfService.Core.Parsing;

namespace PerfService.Ingestion;

/// <summary>A validated upload: the run's metadata and its files, as they came. Disposing it deletes the files that
/// were spooled to disk.</summary>
public sealed record Upload(RunMetadata Metadata, IReadOnlyList<Artifact> Files) : IDisposable
{
    public IReadOnlyList<IDisposable> Spooled { get; init; } = [];

    public void Dispose()
    {
        foreach (var file in Spooled)
            file.Dispose();
    }
}

/// <summary>Input the service refuses, with the HTTP status and, where known, the file and location at fault.</summary>
public sealed class UploadException(
    int status,
    string title,
    string detail,
    string? file = null,
    string? location = null
) : Exception(detail)
{
    public int Status { get; } = status;
    public string Title { get; } = title;
    public string? File { get; } = file;
    public string? Location { get; } = location;

    public IResult ToProblem()
    {
        var extensions = new Dictionary<string, object?>();
        if (File is not null)
            extensions["file"] = File;
        if (Location is not null)
            extensions["location"] = Location;
        return TypedResults.Problem(Message, statusCode: Status, title: Title, extensions: extensions);
    }
}
