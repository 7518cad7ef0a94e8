using System.CommandLine;
using PerfService.Agents.Isolation;
using PerfService.Agents.Processes;

namespace PerfService.Agents.Cli;

/// <summary>perf-agent exec [--sandbox] [--run-as USER] --workdir W -- COMMAND…: runs one command exactly as the agent
/// runs a trusted job's harness (allow-listed environment, HOME in the work folder, the same isolation). Used to
/// measure what the sandbox costs (benches/sandbox-overhead.sh) and to try a suite by hand under the same
/// rules.</summary>
public static class ExecCommand
{
    public static Command Create()
    {
        var workdir = new Option<string>("--workdir")
        {
            Description = "The agent's work folder (HOME and caches live there)",
            Required = true,
        };
        var runAs = new Option<string?>("--run-as") { Description = "Run as this user, as the agent's --run-as" };
        var sandbox = new Option<bool>("--sandbox") { Description = "Run in the agent's bubblewrap sandbox" };
        var command = new Argument<string[]>("command")
        {
            Description = "The command and its arguments",
            Arity = ArgumentArity.OneOrMore,
        };
        var exec = new Command("exec", "Run one command as the agent runs a harness")
        {
            workdir,
            runAs,
            sandbox,
            command,
        };
        exec.SetAction(
            async (parseResult, ct) =>
            {
                var error = parseResult.InvocationConfiguration.Error;
                var output = parseResult.InvocationConfiguration.Output;
                var processes = new ProcessRunner();
                var (isolation, problem) = await IsolationSetup.CreateAsync(
                    parseResult.GetValue(runAs),
                    parseResult.GetValue(sandbox),
                    [],
                    processes,
                    ct
                );
                if (isolation is null)
                {
                    error.WriteLine($"error: {problem}");
                    return 1;
                }
                var work = Path.GetFullPath(parseResult.GetValue(workdir)!);
                var workspace = HarnessWorkspace.Trusted(work, agentCaches: isolation.RunAs is null);
                workspace.Create();
                var args = parseResult.GetValue(command)!;
                var folder = Directory.GetCurrentDirectory();
                string[] writable = [.. workspace.Writable, folder];
                await isolation.HandOverAsync(
                    processes,
                    [folder, .. workspace.Writable.Where(w => w.StartsWith(work + "/", StringComparison.Ordinal))],
                    ct
                );
                var spec = isolation.Wrap(
                    new ProcessSpec(args[0], args[1..], folder) { Environment = workspace.Environment },
                    writable
                );
                var result = await processes.RunAsync(
                    spec,
                    line =>
                    {
                        lock (output)
                            output.WriteLine(line);
                    },
                    ct
                );
                return result.ExitCode;
            }
        );
        return exec;
    }
}
