namespace PerfService.FaultTests.Infrastructure;

/// <summary>The real agent (perf-agent.dll agent …) as a child process, serving profile m1-pro.</summary>
public static class AgentProcess
{
    public const string Profile = "m1-pro";

    public static ChildProcess Start(ServiceProcess service, string token, string name, string workDir, string control,
        bool once = false, string logDir = "")
    {
        Directory.CreateDirectory(workDir);
        var dll = TestPaths.AgentDll;
        List<string> args =
        [
            dll, "agent", "--server", service.BaseAddress.ToString(), "--profile", Profile, "--workdir", workDir, "--name", name,
            "--profiles", TestPaths.ProfilesFile, "--wait-seconds", "2",
            // Harnesses get an allow-listed environment: the suite's control folder is handed on explicitly.
            "--pass-env", "FAULT_CONTROL",
            // These tests count harness runs while several agents share one machine and disturb each other by design;
            // repeating disturbed rounds is the agents' own tests' subject (Agents.Tests), not theirs.
            "--no-repeat-disturbed",
        ];
        if (once) args.Add("--once");
        return ChildProcess.Start("dotnet", args, workDir, new Dictionary<string, string?>
        {
            ["PERF_TOKEN"] = token,
            ["FAULT_CONTROL"] = control,
        }, logFile: Path.Combine(logDir.Length > 0 ? logDir : workDir, $"agent-{name}.log"));
    }
}
