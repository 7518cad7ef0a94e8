using System.Runtime.CompilerServices;

namespace PerfService.Tests.Reports;

/// <summary>
/// A small stand-in for Verify: compares text with the committed <c>Snapshots/{name}.verified.md</c>. On a difference
/// or a missing file it writes <c>{name}.received.md</c> beside it and fails; PERF_UPDATE_SNAPSHOTS=1 accepts the
/// new text as verified instead.
/// </summary>
public static class Snapshot
{
    public static void Match(string actual, string name, [CallerFilePath] string callerFile = "")
    {
        var dir = Path.Combine(SourceFolder(callerFile), "Snapshots");
        var verified = Path.Combine(dir, name + ".verified.md");
        var received = Path.Combine(dir, name + ".received.md");
        actual = Normalise(actual);

        if (Environment.GetEnvironmentVariable("PERF_UPDATE_SNAPSHOTS") == "1")
        {
            Directory.CreateDirectory(dir);
            File.WriteAllText(verified, actual);
            File.Delete(received);
            return;
        }
        if (File.Exists(verified) && Normalise(File.ReadAllText(verified)) == actual)
        {
            File.Delete(received);
            return;
        }
        Directory.CreateDirectory(dir);
        File.WriteAllText(received, actual);
        var why = File.Exists(verified) ? "differs from" : "has no";
        Assert.Fail($"Snapshot '{name}' {why} {verified}.\nThe new text is in {received}: review it, then rename it to "
            + ".verified.md or run the tests with PERF_UPDATE_SNAPSHOTS=1.\n" + FirstDifference(File.Exists(verified) ? Normalise(File.ReadAllText(verified)) : "", actual));
    }

    // Git may check the files out with CRLF and editors add a final newline (.editorconfig); the comparison is about content.
    private static string Normalise(string text) => text.Replace("\r\n", "\n", StringComparison.Ordinal).TrimEnd('\n') + "\n";

    private static string FirstDifference(string expected, string actual)
    {
        var e = expected.Split('\n');
        var a = actual.Split('\n');
        for (var i = 0; i < Math.Max(e.Length, a.Length); i++)
        {
            var el = i < e.Length ? e[i] : "<end>";
            var al = i < a.Length ? a[i] : "<end>";
            if (el != al) return $"First difference at line {i + 1}:\n  verified: {el}\n  received: {al}";
        }
        return "";
    }

    // The source path compiled in is right on a developer's machine; a build with mapped paths finds it from the binaries.
    private static string SourceFolder(string callerFile)
    {
        var dir = Path.GetDirectoryName(callerFile);
        if (dir is not null && Directory.Exists(dir)) return dir;
        for (var d = new DirectoryInfo(AppContext.BaseDirectory); d is not null; d = d.Parent)
        {
            var candidate = Path.Combine(d.FullName, "tests", "PerfService.Tests", "Reports");
            if (Directory.Exists(candidate)) return candidate;
        }
        throw new DirectoryNotFoundException("tests/PerfService.Tests/Reports not found from " + callerFile);
    }
}
