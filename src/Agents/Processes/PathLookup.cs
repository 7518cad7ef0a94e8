namespace PerfService.Agents.Processes;

/// <summary>Finds an executable on a PATH. Done by hand because Process.Start searches the agent's own PATH, not the
/// PATH given to the child (tests put fake tools first on the child's PATH only).</summary>
public static class PathLookup
{
    public static string? Find(string tool, string? path = null)
    {
        if (tool.Contains(Path.DirectorySeparatorChar))
            return File.Exists(tool) ? Path.GetFullPath(tool) : null;
        path ??= Environment.GetEnvironmentVariable("PATH") ?? "";
        foreach (var dir in path.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            var candidate = Path.Combine(dir, tool);
            if (File.Exists(candidate) && IsExecutable(candidate))
                return candidate;
        }
        return null;
    }

    private static bool IsExecutable(string file) =>
        OperatingSystem.IsWindows()
        || (
            File.GetUnixFileMode(file)
            & (UnixFileMode.UserExecute | UnixFileMode.GroupExecute | UnixFileMode.OtherExecute)
        ) != 0;
}
