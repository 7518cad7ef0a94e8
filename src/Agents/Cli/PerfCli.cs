using System.CommandLine;

namespace PerfService.Agents.Cli;

/// <summary>The root command. Each verb lives in its own file; add new verbs (compare, detect) to the list.</summary>
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
            DetectCommand.Create(),
            DetectCommand.CreateEvaluation(),
            CompareEvalCommand.Create(),
        };
}
