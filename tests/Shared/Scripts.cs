using System.Diagnostics;

namespace PerfService.TestSupport;

internal static class Scripts
{
    /// <summary>
    /// Writes an executable shell script (mode 0755). The file is written by a short-lived `sh` of its own rather than
    /// by this process: a descriptor this process holds open for writing is inherited by any child another test thread
    /// forks at that moment and stays open in it until that child execs, and running the file meanwhile fails with
    /// ETXTBSY ("Text file busy"). Tests run in parallel and start processes all the time, so that window was hit in CI.
    /// </summary>
    public static string Write(string path, string body)
    {
        var info = new ProcessStartInfo("/bin/sh") { RedirectStandardInput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var a in new[] { "-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh", path }) info.ArgumentList.Add(a);
        using var process = Process.Start(info)!;
        process.StandardInput.Write("#!/bin/sh\n" + body.ReplaceLineEndings("\n"));
        process.StandardInput.Close();
        var error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0) throw new IOException($"cannot write the script {path}: {error.Trim()}");
        return path;
    }
}
