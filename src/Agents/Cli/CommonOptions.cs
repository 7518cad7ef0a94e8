using System.CommandLine;

namespace PerfService.Agents.Cli;

public static class CommonOptions
{
    public const string TokenVariable = "PERF_TOKEN";

    /// <summary>--token, or PERF_TOKEN so that the secret need not appear in a process list or a CI log. No default
    /// value factory: help would print the secret.</summary>
    public static Option<string?> Token() =>
        new("--token") { Description = $"Bearer token (default: ${TokenVariable})" };

    public static string? ResolveToken(ParseResult parseResult, Option<string?> option)
    {
        var token = parseResult.GetValue(option);
        if (string.IsNullOrEmpty(token))
            token = Environment.GetEnvironmentVariable(TokenVariable);
        if (!string.IsNullOrEmpty(token))
            return token;
        parseResult.InvocationConfiguration.Error.WriteLine($"error: --token or ${TokenVariable} is required");
        return null;
    }
}
