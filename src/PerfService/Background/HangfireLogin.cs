using System.Net;
using Microsoft.AspNetCore.Antiforgery;
using Microsoft.EntityFrameworkCore;
using PerfService.Auth;
using PerfService.Data;

namespace PerfService.Background;

/// <summary>
/// The way into the Hangfire dashboard: a form at <c>/hangfire-login</c> posts an admin token (anti-forgery protected)
/// and gets it back as an HttpOnly, SameSite=Strict cookie valid on /hangfire only. A token never travels in a URL,
/// where proxies, browser history and Referer headers would keep it.
/// </summary>
public static class HangfireLogin
{
    public const string Path = "/hangfire-login";

    public static void MapHangfireLogin(this WebApplication app)
    {
        // Rate-limited like every anonymous route: the form must not become a way to guess tokens quickly.
        var login = app.MapGroup(Path)
            .ExcludeFromDescription()
            .RequireRateLimiting(Hosting.Http.DashboardRateLimiting.Policy);
        login.MapGet(
            "",
            (HttpContext http, IAntiforgery antiforgery) => Page(http, antiforgery, null, StatusCodes.Status200OK)
        );
        login.MapPost("", SignInAsync).DisableAntiforgery();
    }

    private static async Task<IResult> SignInAsync(
        HttpContext http,
        IAntiforgery antiforgery,
        PerfDbContext db,
        TimeProvider time
    )
    {
        if (!http.Request.HasFormContentType || !await antiforgery.IsRequestValidAsync(http))
            return TypedResults.Problem(
                "the login form's anti-forgery token is missing or wrong: reload the form",
                statusCode: 400,
                title: "Invalid form"
            );
        var secret = (await http.Request.ReadFormAsync(http.RequestAborted))["token"].ToString().Trim();
        var now = time.GetUtcNow();
        var hash = TokenHasher.Hash(secret);
        var admin =
            secret.Length > 0
            && await db.Tokens.AnyAsync(
                t =>
                    t.Hash == hash
                    && t.RevokedAt == null
                    && (t.ExpiresAt == null || t.ExpiresAt > now)
                    && t.Scopes.Contains(Scopes.Admin)
                    && t.ProjectId == null,
                http.RequestAborted
            );
        // The dashboard admits service admins only (ProjectAccess.IsServiceAdmin): a cookie for any other token would
        // be a credential stored in the browser that opens nothing.
        if (!admin)
            return Page(
                http,
                antiforgery,
                "That is not a live admin token bound to no project.",
                StatusCodes.Status401Unauthorized
            );
        http.Response.Cookies.Append(
            HangfireDashboard.Cookie,
            secret,
            new CookieOptions
            {
                HttpOnly = true,
                SameSite = SameSiteMode.Strict,
                Secure = http.Request.IsHttps,
                Path = HangfireDashboard.Path,
                MaxAge = TimeSpan.FromHours(8),
            }
        );
        return TypedResults.Redirect(HangfireDashboard.Path);
    }

    private static IResult Page(HttpContext http, IAntiforgery antiforgery, string? error, int status)
    {
        var tokens = antiforgery.GetAndStoreTokens(http);
        Dashboard.SecurityHeaders.Apply(http.Response);
        http.Response.Headers.CacheControl = "no-store";
        var message = error is null ? "" : $"<p role=\"alert\">{WebUtility.HtmlEncode(error)}</p>";
        return TypedResults.Content(
            $"""
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>PerfService background jobs: sign in</title>
            <link rel="stylesheet" href="/css/site.css"></head>
            <body><main><h1>Background jobs</h1>
            {message}
            <form method="post" action="{Path}">
              <input type="hidden" name="{WebUtility.HtmlEncode(tokens.FormFieldName)}" value="{WebUtility.HtmlEncode(
                tokens.RequestToken
            )}">
              <label>Admin token <input type="password" name="token" autocomplete="off" required></label>
              <button type="submit">Sign in</button>
            </form></main></body></html>
            """,
            "text/html; charset=utf-8",
            statusCode: status
        );
    }
}
