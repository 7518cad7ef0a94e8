using Microsoft.EntityFrameworkCore;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.Auth;

/// <summary>Creates tokens from the command line (<c>./perf token create</c>): the first admin token has to come from somewhere.</summary>
public static class TokenCommands
{
    public static async Task<string> CreateAsync(PerfDbContext db, string name, IReadOnlyList<string> scopes, long? projectId = null)
    {
        var unknown = scopes.Except(Scopes.All).ToList();
        if (unknown.Count > 0) throw new ArgumentException($"unknown scope(s) {string.Join(", ", unknown)}; known: {string.Join(", ", Scopes.All)}");
        var secret = TokenHasher.NewSecret();
        db.Tokens.Add(new ApiToken
        {
            Name = name,
            Hash = TokenHasher.Hash(secret),
            Scopes = scopes.Distinct().ToArray(),
            ProjectId = projectId,
            CreatedAt = DateTimeOffset.UtcNow,
        });
        await db.SaveChangesAsync();
        return secret;
    }

    public static Task<int> RevokeAsync(PerfDbContext db, string name) =>
        db.Tokens.Where(t => t.Name == name && t.RevokedAt == null)
            .ExecuteUpdateAsync(s => s.SetProperty(t => t.RevokedAt, DateTimeOffset.UtcNow));
}
