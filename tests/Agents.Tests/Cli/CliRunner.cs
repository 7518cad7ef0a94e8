using System.CommandLine;
using PerfService.Agents.Cli;

namespace PerfService.Agents.Tests.Cli;

public sealed record CliResult(int ExitCode, string Output, string Error);

public static class CliRunner
{
    public static async Task<CliResult> RunAsync(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var code = await PerfCli.Create().Parse(args).InvokeAsync(new InvocationConfiguration { Output = output, Error = error });
        return new CliResult(code, output.ToString(), error.ToString());
    }
}
