using PerfService.Agents.Suites;
using PerfService.Core.Parsing;

namespace PerfService.Agents.Jobs;

/// <summary>Decides whether a harness run produced something worth posting: it exited cleanly, wrote files, and
/// those files parse into at least one result here, before the service ever sees them.</summary>
public static class ResultCheck
{
    /// <exception cref="JobFailedException">With the harness's own output tail attached.</exception>
    public static ParseResult Check(string what, SuiteOutput output, TimeSpan timeout)
    {
        var process = output.Process;
        if (process.TimedOut)
            throw Failed(
                what,
                $"timed out after {timeout.TotalSeconds:0} s; its process tree was killed",
                process.Tail
            );
        if (process.ExitCode != 0)
            throw Failed(
                what,
                $"exited with code {process.ExitCode} after {process.Elapsed.TotalSeconds:0.0} s",
                process.Tail
            );
        if (output.Files.Count == 0)
            throw Failed(what, $"wrote no {output.Format} results", process.Tail);
        ParseResult parsed;
        try
        {
            parsed = ResultParsers.Parse(output.Files, output.Format);
        }
        catch (ParseException e)
        {
            throw Failed(what, $"wrote results that do not parse: {e.Message}", process.Tail);
        }
        if (parsed.Results.Count == 0)
            throw Failed(what, $"wrote {output.Format} files with no benchmark in them", process.Tail);
        return parsed;
    }

    private static JobFailedException Failed(string what, string reason, IReadOnlyList<string> tail) =>
        new(
            tail.Count == 0
                ? $"{what} {reason} (no output)"
                : $"{what} {reason}; last output:\n{string.Join('\n', tail)}"
        );
}
