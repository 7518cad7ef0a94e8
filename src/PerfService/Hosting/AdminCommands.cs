using PerfService.Auth;
using PerfService.Data;

namespace PerfService.Hosting;

/// <summary>
/// Commands run by the service binary instead of serving. <c>token create --name N --scopes a,b [--project SLUG | --project-id ID] [--expires 90d|DATE]</c> prints
/// a new token once (how operators bootstrap the first admin token); <c>token list</c> shows tokens (never secrets);
/// <c>token revoke --name N</c> revokes every live token of that name. Used by ./perf token.
/// </summary>
public static class AdminCommands
{
    public static async Task<bool> TryRunAsync(this WebApplication app, string[] args)
    {
        if (args is not ["token", var verb, ..]) return false;
        string? Arg(string name) => args.SkipWhile(a => a != name).Skip(1).FirstOrDefault();
        await using var scope = app.Services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<PerfDbContext>();
        switch (verb)
        {
            case "create":
                var scopes = (Arg("--scopes") ?? Scopes.Read).Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
                var projectId = await TokenCommands.ProjectAsync(db, Arg("--project"), Arg("--project-id"));
                DateTimeOffset? expires = Arg("--expires") is { } e ? TokenCommands.ParseExpiry(e, DateTimeOffset.UtcNow) : null;
                Console.WriteLine(await TokenCommands.CreateAsync(db, Arg("--name") ?? "cli", scopes, projectId, expires));
                break;
            case "list":
                foreach (var t in db.Tokens.OrderBy(t => t.Id))
                    Console.WriteLine($"{t.Id}\t{t.Name}\t{string.Join(',', t.Scopes)}\t{(t.RevokedAt is null ? "live" : $"revoked {t.RevokedAt:u}")}\t{(t.ExpiresAt is null ? "no expiry" : $"expires {t.ExpiresAt:u}")}");
                break;
            case "revoke":
                var name = Arg("--name") ?? throw new ArgumentException("token revoke needs --name");
                Console.WriteLine($"revoked {await TokenCommands.RevokeAsync(db, name)} token(s) named '{name}'");
                break;
            default:
                throw new ArgumentException($"unknown token command '{verb}': create, list or revoke");
        }
        return true;
    }
}
