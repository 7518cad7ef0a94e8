using PerfService.Auth;
using PerfService.Data;

namespace PerfService.Hosting;

/// <summary>
/// Commands run by the service binary instead of serving: <c>PerfService token create --name N --scopes a,b [--project-id ID]</c>
/// prints a new token once. Used by ./perf token and by operators bootstrapping the first admin token.
/// </summary>
public static class AdminCommands
{
    public static async Task<bool> TryRunAsync(this WebApplication app, string[] args)
    {
        if (args is not ["token", "create", ..]) return false;
        string? Arg(string name) => args.SkipWhile(a => a != name).Skip(1).FirstOrDefault();
        var scopes = (Arg("--scopes") ?? Scopes.Read).Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        long? projectId = long.TryParse(Arg("--project-id"), out var id) ? id : null;
        await using var scope = app.Services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<PerfDbContext>();
        Console.WriteLine(await TokenCommands.CreateAsync(db, Arg("--name") ?? "cli", scopes, projectId));
        return true;
    }
}
