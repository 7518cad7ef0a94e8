namespace PerfService.Agents.Jobs;

/// <summary>A commit id as the service may send it: hexadecimal, 7 to 40 digits (abbreviated or SHA-1) or 64 (SHA-256).
/// Checked before any git call, so that a value like "--upload-pack=…" can never be read as an option.</summary>
public static class CommitId
{
    public static bool IsValid(string? value) =>
        value is { Length: (>= 7 and <= 40) or 64 } && value.All(char.IsAsciiHexDigit);

    /// <exception cref="JobFailedException">When <paramref name="value"/> is not a commit id.</exception>
    public static string Require(string? value) =>
        IsValid(value)
            ? value!
            : throw new JobFailedException(
                $"'{Printable(value)}' is not a commit id (7 to 40 or 64 hexadecimal digits); the job was not run"
            );

    private static string Printable(string? value) =>
        value is null ? "(none)" : new string(value.Take(80).Select(c => char.IsControl(c) ? '?' : c).ToArray());
}
