using System.Diagnostics;

namespace PerfService.Agents.Tests.Isolation;

/// <summary>What this machine allows, probed once: bubblewrap needs user namespaces (or root), --run-as needs root
/// to create a throwaway user and to switch to it.</summary>
public static class IsolationProbe
{
    public static readonly string? SandboxUnavailable = ProbeSandbox();
    public static readonly string? RunAsUnavailable = ProbeRunAs();

    private static string? ProbeSandbox()
    {
        if (!OperatingSystem.IsLinux()) return "bubblewrap is Linux only";
        if (!File.Exists("/usr/bin/bwrap")) return "bubblewrap is not installed (apt-get install bubblewrap; .ci/run installs it)";
        var (code, output) = Run("/usr/bin/bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true");
        return code == 0 ? null : $"bwrap cannot create a sandbox on this machine (user namespaces disabled?): {output}";
    }

    private static string? ProbeRunAs()
    {
        if (!OperatingSystem.IsLinux()) return "--run-as is Linux only";
        if (Environment.UserName != "root") return "creating a throwaway user for --run-as needs root";
        if (!File.Exists("/usr/sbin/useradd") || !File.Exists("/usr/bin/setpriv")) return "useradd or setpriv missing";
        return null;
    }

    public static (int Code, string Output) Run(string file, params string[] args)
    {
        var psi = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var a in args) psi.ArgumentList.Add(a);
        using var p = Process.Start(psi)!;
        var output = p.StandardOutput.ReadToEnd() + p.StandardError.ReadToEnd();
        p.WaitForExit();
        return (p.ExitCode, output.Trim());
    }
}

/// <summary>A fact that needs bubblewrap to work here; skipped with the reason otherwise.</summary>
public sealed class SandboxFactAttribute : FactAttribute
{
    public SandboxFactAttribute()
    {
        if (IsolationProbe.SandboxUnavailable is { } reason) Skip = reason;
    }
}

/// <summary>A fact that needs to create a user and run as it; skipped with the reason otherwise.</summary>
public sealed class RunAsFactAttribute : FactAttribute
{
    public RunAsFactAttribute()
    {
        if (IsolationProbe.RunAsUnavailable is { } reason) Skip = reason;
    }
}

/// <summary>A fact that needs both.</summary>
public sealed class RunAsSandboxFactAttribute : FactAttribute
{
    public RunAsSandboxFactAttribute()
    {
        if ((IsolationProbe.RunAsUnavailable ?? IsolationProbe.SandboxUnavailable) is { } reason) Skip = reason;
    }
}
