namespace PerfService.Ingestion;

/// <summary>
/// Artifact names are stored and shown, never used as file system paths; still, a name that tries to climb out of
/// its folder or hides control characters is refused, so that nobody downstream has to think about it.
/// </summary>
public static class SafePath
{
    public static string Check(string? name)
    {
        if (string.IsNullOrWhiteSpace(name))
            throw Bad(name ?? "", "a file has no name");
        if (name.Length > 500)
            throw Bad(name[..50] + "…", "file names are limited to 500 characters");
        if (name.Any(c => char.IsControl(c)))
            throw Bad(name, "file names may not contain control characters");
        // The form reader decodes names as UTF-8 and turns invalid bytes into U+FFFD; such a name was not what the
        // client meant, and two different bad names would collide as the same one.
        if (name.Contains(Utf8Text.Replacement))
            throw Bad(name, "the file name is not valid UTF-8");
        if (name.Contains('\\'))
            throw Bad(name, "use '/' to separate folders");
        if (name.StartsWith('/') || (name.Length > 1 && name[1] == ':'))
            throw Bad(name, "file names must be relative");
        var segments = name.Split('/');
        if (segments.Any(s => s is "" or "." or ".."))
            throw Bad(name, "file names may not contain empty, '.' or '..' segments");
        return name;
    }

    private static UploadException Bad(string name, string why) =>
        new(400, "Unsafe file name", $"'{name}': {why}", name);
}
