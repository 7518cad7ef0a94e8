using System.Diagnostics;

namespace PerfService.TestSupport;

/// <summary>Builds small real git repositories for the tests (linked into every test project: tests/Directory.Build.props).</summary>
internal static class Git
{
    public static string Run(string dir, params string[] args)
    {
        var psi = new ProcessStartInfo("git") { WorkingDirectory = dir, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var a in args) psi.ArgumentList.Add(a);
        psi.Environment["GIT_AUTHOR_NAME"] = psi.Environment["GIT_COMMITTER_NAME"] = "Test";
        psi.Environment["GIT_AUTHOR_EMAIL"] = psi.Environment["GIT_COMMITTER_EMAIL"] = "test@example.invalid";
        using var p = Process.Start(psi)!;
        var stdout = p.StandardOutput.ReadToEnd();
        var stderr = p.StandardError.ReadToEnd();
        p.WaitForExit();
        if (p.ExitCode != 0) throw new InvalidOperationException($"git {string.Join(' ', args)}: {stderr}");
        return stdout.Trim();
    }

    public static string Init(string dir, string branch = "main")
    {
        Directory.CreateDirectory(dir);
        Run(dir, "init", "--quiet", $"--initial-branch={branch}");
        return dir;
    }

    /// <summary>Writes the files, commits them, returns the commit's SHA.</summary>
    public static string Commit(string repo, string message, params (string Path, string Content)[] files)
    {
        foreach (var (path, content) in files)
        {
            var full = Path.Combine(repo, path);
            Directory.CreateDirectory(Path.GetDirectoryName(full)!);
            File.WriteAllText(full, content);
        }
        Run(repo, "add", "-A");
        Run(repo, "commit", "--quiet", "--allow-empty", "-m", message);
        return Run(repo, "rev-parse", "HEAD");
    }
}
