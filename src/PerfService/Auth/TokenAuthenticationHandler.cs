using System.Globalization;
using System.Security.Claims;
using System.Text.Encodings.Web;
using Microsoft.AspNetCore.Authentication;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Data;

namespace PerfService.Auth;

/// <summary>Bearer tokens looked up by hash. A revoked, expired or unknown token fails; no header means
/// anonymous.</summary>
public sealed class TokenAuthenticationHandler(
    IOptionsMonitor<AuthenticationSchemeOptions> options,
    ILoggerFactory logger,
    UrlEncoder encoder,
    PerfDbContext db,
    TokenUsage usage,
    TimeProvider time
) : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    public const string SchemeName = "Token";
    private const string FailureKey = "perf.auth.failure";

    protected override async Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        string? header = Request.Headers.Authorization;
        string? secret = null;
        if (!string.IsNullOrEmpty(header) && header.StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase))
            secret = header["Bearer ".Length..].Trim();
        // The Hangfire dashboard is a browser page: there, and only there, the token may come from its cookie.
        else if (Request.Path.StartsWithSegments(Background.HangfireDashboard.Path))
            secret = Request.Cookies[Background.HangfireDashboard.Cookie];
        if (string.IsNullOrEmpty(secret))
            return AuthenticateResult.NoResult();

        var hash = TokenHasher.Hash(secret);
        var token = await db
            .Tokens.AsNoTracking()
            .Where(t => t.Hash == hash && t.RevokedAt == null)
            .Select(t => new
            {
                t.Id,
                t.Name,
                t.Scopes,
                t.ProjectId,
                t.ExpiresAt,
            })
            .FirstOrDefaultAsync(Context.RequestAborted);
        if (token is null)
            return Fail("unknown or revoked token");
        if (token.ExpiresAt is { } expires && expires <= time.GetUtcNow())
            return Fail(
                string.Create(
                    CultureInfo.InvariantCulture,
                    $"token '{token.Name}' expired at {expires:u}; create a new one (./perf token create)"
                )
            );
        await usage.RecordAsync(db, token.Id, Context.RequestAborted);

        var claims = new List<Claim>
        {
            new(ClaimTypes.NameIdentifier, token.Id.ToString()),
            new(ClaimTypes.Name, token.Name),
        };
        claims.AddRange(token.Scopes.Select(s => new Claim(Scopes.ClaimType, s)));
        if (token.ProjectId is { } projectId)
            claims.Add(new Claim("project", projectId.ToString()));
        var principal = new ClaimsPrincipal(new ClaimsIdentity(claims, SchemeName));
        return AuthenticateResult.Success(new AuthenticationTicket(principal, SchemeName));
    }

    /// <summary>A refused token is answered with ProblemDetails saying why (expired, revoked), not a bare
    /// 401.</summary>
    protected override async Task HandleChallengeAsync(AuthenticationProperties properties)
    {
        Response.StatusCode = StatusCodes.Status401Unauthorized;
        if (Context.Items[FailureKey] is not string why)
            return;
        await Context
            .RequestServices.GetRequiredService<IProblemDetailsService>()
            .TryWriteAsync(
                new ProblemDetailsContext
                {
                    HttpContext = Context,
                    ProblemDetails =
                    {
                        Status = StatusCodes.Status401Unauthorized,
                        Title = "Token refused",
                        Detail = why,
                    },
                }
            );
    }

    private AuthenticateResult Fail(string why)
    {
        Context.Items[FailureKey] = why;
        return AuthenticateResult.Fail(why);
    }
}
