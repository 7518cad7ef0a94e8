using Microsoft.EntityFrameworkCore;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.Auth;

/// <summary>Creates tokens from the command line (<c>./perf token create</c>): the first admin token has to come from
/// somewhere.</summary>
public static class TokenCommands
{
    public static async Task<string> CreateAsync(
        PerfDbContext db,
        string name,
        IReadOnlyList<string> scopes,
        long? projectId = null,
        DateTimeOffset? expiresAt = null,
        TimeProvider? time = null
    )
    {
        var unknown = scopes.Except(Scopes.All).ToList();
        if (unknown.Count > 0)
            throw new ArgumentException(
                $"unknown scope(s) {string.Join(", ", unknown)}; known: {string.Join(", ", Scopes.All)}"
            );
        if (projectId is { } id && !await db.Projects.AnyAsync(p => p.Id == id))
            throw new ArgumentException($"there is no project with id {id}: a token cannot be bound to it");
        var secret = TokenHasher.NewSecret();
        db.Tokens.Add(
            new ApiToken
            {
                Name = name,
                Hash = TokenHasher.Hash(secret),
                Scopes = scopes.Distinct().ToArray(),
                ProjectId = projectId,
                CreatedAt = (time ?? TimeProvider.System).GetUtcNow(),
                ExpiresAt = expiresAt,
            }
        );
        await db.SaveChangesAsync();
        return secret;
    }

    /// <summary>
    /// The project a new token is bound to: <c>--project SLUG</c> or <c>--project-id ID</c>, or none. A value that
    /// names
    /// no project is an error, never a silently unbound (all-projects) token.
    /// </summary>
    public static async Task<long?> ProjectAsync(PerfDbContext db, string? slug, string? id)
    {
        if (slug is not null && id is not null)
            throw new ArgumentException("give --project or --project-id, not both");
        if (id is not null)
            return long.TryParse(
                id,
                System.Globalization.NumberStyles.None,
                System.Globalization.CultureInfo.InvariantCulture,
                out var parsed
            )
                ? parsed
                : throw new ArgumentException($"--project-id '{id}' is not a project id (a positive number)");
        if (slug is null)
            return null;
        return await db.Projects.Where(p => p.Slug == slug).Select(p => (long?)p.Id).FirstOrDefaultAsync()
            ?? throw new ArgumentException($"there is no project '{slug}': a token cannot be bound to it");
    }

    /// <summary><c>--expires</c>: a lifetime (<c>90d</c>, <c>12h</c>) from <paramref name="now"/>, or a date
    /// (<c>2027-03-01</c>, UTC).</summary>
    public static DateTimeOffset ParseExpiry(string text, DateTimeOffset now)
    {
        if (
            text.Length > 1
            && int.TryParse(text[..^1], System.Globalization.CultureInfo.InvariantCulture, out var n)
            && n > 0
        )
            switch (text[^1])
            {
                case 'd':
                    return now.AddDays(n);
                case 'h':
                    return now.AddHours(n);
            }
        if (
            DateTimeOffset.TryParse(
                text,
                System.Globalization.CultureInfo.InvariantCulture,
                System.Globalization.DateTimeStyles.AssumeUniversal,
                out var at
            )
            && at > now
        )
            return at;
        throw new ArgumentException(
            $"--expires '{text}': give a lifetime such as 90d or 12h, or a future date such as 2027-03-01"
        );
    }

    public static Task<int> RevokeAsync(PerfDbContext db, string name, TimeProvider? time = null) =>
        db
            .Tokens.Where(t => t.Name == name && t.RevokedAt == null)
            .ExecuteUpdateAsync(s => s.SetProperty(t => t.RevokedAt, (time ?? TimeProvider.System).GetUtcNow()));
}
