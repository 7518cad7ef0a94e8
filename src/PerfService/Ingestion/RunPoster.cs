using System.Security.Claims;
using PerfService.Auth;

namespace PerfService.Ingestion;

/// <summary>Who posts a run: the token's id, the project it is bound to, and whether it may act for agents.</summary>
public sealed record RunPoster(long? TokenId, long? ProjectId, bool Admin, bool Agent)
{
    public static RunPoster From(ClaimsPrincipal user) =>
        new(
            long.TryParse(user.FindFirstValue(ClaimTypes.NameIdentifier), out var id) ? id : null,
            long.TryParse(user.FindFirst("project")?.Value, out var p) ? p : null,
            user.HasAnyScope(Scopes.Admin),
            user.HasAnyScope(Scopes.Agent, Scopes.Admin)
        );
}
