namespace PerfService.Agents.Tests.Isolation;

/// <summary>A system user made for one test's <c>--run-as</c> and deleted after it (needs root: see
/// <see cref="RunAsFactAttribute"/>).</summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class ThrowawayUser : IDisposable
{
    public string Name { get; } = "perfbench" + Guid.NewGuid().ToString("N")[..8];

    public ThrowawayUser()
    {
        var (code, output) = IsolationProbe.Run("/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", Name);
        if (code != 0) throw new InvalidOperationException($"useradd {Name} failed: {output}");
    }

    /// <summary>The user's uid and gid, as the agent resolves them at start.</summary>
    public PerfService.Agents.Isolation.RunAsUser Resolve() =>
        new(Name, int.Parse(IsolationProbe.Run("/usr/bin/id", "-u", Name).Output), int.Parse(IsolationProbe.Run("/usr/bin/id", "-g", Name).Output));

    /// <summary>Lets the user reach a work folder inside a test's private temp folder (everyone may list and enter it).</summary>
    public static void LetIn(string folder) => File.SetUnixFileMode(folder, (UnixFileMode)0b111_101_101);

    public void Dispose() => IsolationProbe.Run("/usr/sbin/userdel", Name);
}
