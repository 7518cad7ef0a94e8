using System.Security.Claims;
using System.Text.Encodings.Web;
using Microsoft.AspNetCore.Authentication;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Data;

namespace PerfService.Auth;

/// <summary>Bearer tokens looked up by hash. A revoked or unknown token fails; no header means anonymous.</summary>
public sealed class TokenAuthenticationHandler(
    IOptionsMonitor<AuthenticationSchemeOptions> options, ILoggerFactory logger, UrlEncoder encoder, PerfDbContext db)
    : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    public const string SchemeName = "Token";

    protected override async Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        string? header = Request.Headers.Authorization;
        string? secret = null;
        if (!string.IsNullOrEmpty(header) && header.StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase))
            secret = header["Bearer ".Length..].Trim();
        // The Hangfire dashboard is a browser page: there, and only there, the token may come from its cookie.
        else if (Request.Path.StartsWithSegments(Background.HangfireDashboard.Path))
            secret = Request.Cookies[Background.HangfireDashboard.Cookie];
        if (string.IsNullOrEmpty(secret)) return AuthenticateResult.NoResult();

        var hash = TokenHasher.Hash(secret);
        var token = await db.Tokens.AsNoTracking()
            .Where(t => t.Hash == hash && t.RevokedAt == null)
            .Select(t => new { t.Id, t.Name, t.Scopes, t.ProjectId })
            .FirstOrDefaultAsync(Context.RequestAborted);
        if (token is null) return AuthenticateResult.Fail("unknown or revoked token");

        var claims = new List<Claim> { new(ClaimTypes.NameIdentifier, token.Id.ToString()), new(ClaimTypes.Name, token.Name) };
        claims.AddRange(token.Scopes.Select(s => new Claim(Scopes.ClaimType, s)));
        if (token.ProjectId is { } projectId) claims.Add(new Claim("project", projectId.ToString()));
        var principal = new ClaimsPrincipal(new ClaimsIdentity(claims, SchemeName));
        return AuthenticateResult.Success(new AuthenticationTicket(principal, SchemeName));
    }
}
