using System.CommandLine;
using PerfService.Agents.Cli;

// The agent verb shuts down through the generic host (SIGTERM/Ctrl+C → report the job, then exit), so
// System.CommandLine's own termination handling, which would cut that short, is off.
return await PerfCli.Create().Parse(args).InvokeAsync(new InvocationConfiguration { ProcessTerminationTimeout = null });
