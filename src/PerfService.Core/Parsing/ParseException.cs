namespace PerfService.Core.Parsing;

/// <summary>
/// Input that cannot be understood. Says which file, where in it (a line number or a JSON path) and what was expected,
/// so that the API can answer with a ProblemDetails a user can act on.
/// </summary>
public sealed class ParseException(string file, string? location, string message)
    : Exception(location is null ? $"{file}: {message}" : $"{file} at {location}: {message}")
{
    public string File { get; } = file;
    public string? Location { get; } = location;
    public string Reason { get; } = message;
}
