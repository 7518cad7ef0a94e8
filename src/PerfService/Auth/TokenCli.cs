using System.CommandLine;
using System.Globalization;
using Microsoft.EntityFrameworkCore;
using PerfService.Data;

namespace PerfService.Auth;

/// <summary>
/// <c>token create|list|revoke</c>, run by the service binary instead of serving (<c>./perf token</c>,
/// <c>dotnet PerfService.dll token …</c>): how operators bootstrap the first admin token and rotate the others.
/// Options,
/// defaults and help text are declared once here; errors are one line on stderr and exit code 1 (2 for bad usage).
/// </summary>
public static class TokenCli
{
    public static Command Create(IServiceProvider services)
    {
        var token = new Command(
            "token",
            "Create, list and revoke API tokens (the secret is printed once, only its hash is stored)"
        )
        {
            CreateCommand(services),
            ListCommand(services),
            RevokeCommand(services),
        };
        return token;
    }

    private static Command CreateCommand(IServiceProvider services)
    {
        var name = new Option<string>("--name")
        {
            Description = "The token's name, shown in logs and audit records",
            DefaultValueFactory = _ => "cli",
        };
        var scopes = new Option<string[]>("--scopes")
        {
            Description = $"Comma-separated scopes: {string.Join(", ", Scopes.All)}",
            DefaultValueFactory = _ => [Scopes.Read],
            CustomParser = r =>
                r.Tokens.SelectMany(t =>
                        t.Value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                    )
                    .ToArray(),
        };
        scopes.Validators.Add(r =>
        {
            if (r.GetValueOrDefault<string[]>().Except(Scopes.All).ToList() is { Count: > 0 } unknown)
                r.AddError($"unknown scope(s) {string.Join(", ", unknown)}; known: {string.Join(", ", Scopes.All)}");
        });
        var project = new Option<string?>("--project")
        {
            Description = "Bind the token to this project (its slug): it acts on that project only",
        };
        // Both are resolved (and refused when they name no project) by TokenCommands.ProjectAsync, the one home of that
        // rule.
        var projectId = new Option<string?>("--project-id")
        {
            Description = "Bind the token to this project (its id) instead of a slug",
        };
        var expires = new Option<string?>("--expires")
        {
            Description = "A lifetime (90d, 12h) or a UTC date (2027-03-01); default: no expiry",
        };
        var command = new Command("create", "Create a token and print it once")
        {
            name,
            scopes,
            project,
            projectId,
            expires,
        };
        command.SetAction(
            async (parse, ct) =>
                await RunAsync(
                    parse,
                    async (db, output) =>
                    {
                        var bound = await TokenCommands.ProjectAsync(
                            db,
                            parse.GetValue(project),
                            parse.GetValue(projectId)
                        );
                        var time = services.GetRequiredService<TimeProvider>();
                        DateTimeOffset? until = parse.GetValue(expires) is { } e
                            ? TokenCommands.ParseExpiry(e, time.GetUtcNow())
                            : null;
                        await output.WriteLineAsync(
                            await TokenCommands.CreateAsync(
                                db,
                                parse.GetValue(name)!,
                                parse.GetValue(scopes)!,
                                bound,
                                until,
                                time
                            )
                        );
                    },
                    services
                )
        );
        return command;
    }

    private static Command ListCommand(IServiceProvider services)
    {
        var command = new Command("list", "List tokens: id, name, scopes, project, state, expiry (never secrets)");
        command.SetAction(
            async (parse, ct) =>
                await RunAsync(
                    parse,
                    async (db, output) =>
                    {
                        foreach (var t in await db.Tokens.AsNoTracking().OrderBy(t => t.Id).ToListAsync(ct))
                            await output.WriteLineAsync(
                                string.Create(
                                    CultureInfo.InvariantCulture,
                                    $"{t.Id}\t{t.Name}\t{string.Join(',', t.Scopes)}\t{(t.RevokedAt is null ? "live" : $"revoked {t.RevokedAt:u}")}\t{(t.ExpiresAt is null ? "no expiry" : $"expires {t.ExpiresAt:u}")}"
                                )
                            );
                    },
                    services
                )
        );
        return command;
    }

    private static Command RevokeCommand(IServiceProvider services)
    {
        var name = new Option<string>("--name")
        {
            Description = "Revoke every live token of this name",
            Required = true,
        };
        var command = new Command(
            "revoke",
            "Revoke every live token of a name (to rotate: create the new one, deploy it, then revoke)"
        )
        {
            name,
        };
        command.SetAction(
            async (parse, ct) =>
                await RunAsync(
                    parse,
                    async (db, output) =>
                    {
                        var n = parse.GetValue(name)!;
                        await output.WriteLineAsync(
                            $"revoked {await TokenCommands.RevokeAsync(db, n, services.GetRequiredService<TimeProvider>())} token(s) named '{n}'"
                        );
                    },
                    services
                )
        );
        return command;
    }

    /// <summary>A refused request (unknown project or scope, bad expiry) is one line on stderr and exit code
    /// 1.</summary>
    private static async Task<int> RunAsync(
        ParseResult parse,
        Func<PerfDbContext, TextWriter, Task> action,
        IServiceProvider services
    )
    {
        try
        {
            await using var scope = services.CreateAsyncScope();
            await action(
                scope.ServiceProvider.GetRequiredService<PerfDbContext>(),
                parse.InvocationConfiguration.Output
            );
            return 0;
        }
        catch (ArgumentException e)
        {
            await parse.InvocationConfiguration.Error.WriteLineAsync($"error: {e.Message}");
            return 1;
        }
    }
}
