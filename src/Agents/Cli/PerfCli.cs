using System.CommandLine;

namespace PerfService.Agents.Cli;

/// <summary>The root command. Each verb lives in its own file; add new verbs to the list. The research
/// verbs (detect, detect-eval, compare-eval) are tools of their own under tools/, not part of the agent.</summary>
public static class PerfCli
{
    public static RootCommand Create() =>
        new("perf-agent: PerfService's benchmark agent and client")
        {
            AgentCommand.Create(),
            ExecCommand.Create(),
            ParseCommand.Create(),
            SubmitCommand.Create(),
            CompareCommand.Create(),
        };
}
