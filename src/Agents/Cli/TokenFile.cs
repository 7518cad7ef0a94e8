namespace PerfService.Agents.Cli;

/// <summary>
/// --token-file: the safe way to give the agent its token. Unlike --token (visible in the process list) and PERF_TOKEN
/// (inherited by children and readable in /proc/PID/environ by anything running as the agent's user), a file only
/// the agent's user can read keeps the secret out of every harness's reach. A file that group or others may read or
/// write is refused: someone else on the machine could read the token or swap in their own.
/// </summary>
public static class TokenFile
{
    public static (string? Token, string? Error) Read(string path)
    {
        string full = Path.GetFullPath(path);
        if (!File.Exists(full))
            return (null, $"--token-file {path}: no such file");
        if (!OperatingSystem.IsWindows())
        {
            const UnixFileMode open =
                UnixFileMode.GroupRead | UnixFileMode.GroupWrite | UnixFileMode.OtherRead | UnixFileMode.OtherWrite;
            var mode = File.GetUnixFileMode(full);
            if ((mode & open) != 0)
                return (
                    null,
                    $"--token-file {path} is readable or writable by group or others (mode {Octal(mode)}); "
                        + $"make it the agent user's alone: chmod 600 {path}"
                );
        }
        string token;
        try
        {
            token = File.ReadAllText(full).Trim();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return (null, $"--token-file {path}: {e.Message}");
        }
        return token.Length == 0 ? (null, $"--token-file {path} is empty") : (token, null);
    }

    private static string Octal(UnixFileMode mode) => Convert.ToString((int)mode & 0x1FF, 8).PadLeft(4, '0');
}
