using System.CommandLine;
using PerfService.Auth;

namespace PerfService.Hosting;

/// <summary>
/// Commands run by the service binary instead of serving: <c>token create|list|revoke</c> (<see cref="TokenCli"/>),
/// used by ./perf token and the deploy guides. Any other arguments (--urls, configuration) mean: serve.
/// </summary>
public static class AdminCommands
{
    public static async Task<bool> TryRunAsync(this WebApplication app, string[] args)
    {
        if (args is not ["token", ..])
            return false;
        var root = new RootCommand("PerfService: administrative commands (run without them, it serves)")
        {
            TokenCli.Create(app.Services),
        };
        Environment.ExitCode = await root.Parse(args).InvokeAsync();
        return true;
    }
}
