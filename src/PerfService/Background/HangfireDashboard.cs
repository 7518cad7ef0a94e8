using Hangfire;
using Hangfire.Dashboard;
using PerfService.Auth;

namespace PerfService.Background;

/// <summary>
/// Hangfire's dashboard under /hangfire, for admin tokens only. A browser cannot send a bearer header, so the first
/// visit takes the token once as <c>?token=</c>, which becomes an HttpOnly, SameSite=Strict cookie honoured on
/// /hangfire paths only: the API never accepts cookies, so it stays immune to cross-site request forgery.
/// </summary>
public static class HangfireDashboard
{
    public const string Path = "/hangfire";
    public const string Cookie = "perf_hangfire";

    public static WebApplication MapHangfireAdminDashboard(this WebApplication app)
    {
        app.Use(async (http, next) =>
        {
            if (http.Request.Path.StartsWithSegments(Path) && http.Request.Query.TryGetValue("token", out var token) && token.Count == 1)
            {
                http.Response.Cookies.Append(Cookie, token.ToString(), new CookieOptions
                {
                    HttpOnly = true, SameSite = SameSiteMode.Strict, Secure = http.Request.IsHttps, Path = Path, MaxAge = TimeSpan.FromHours(8),
                });
                http.Response.Redirect(Path);
                return;
            }
            await next();
        });
        app.MapHangfireDashboard(Path, new DashboardOptions
        {
            Authorization = [new AdminOnly()],
            DisplayStorageConnectionString = false,
            DashboardTitle = "PerfService background jobs",
        }, app.Services.GetRequiredService<JobStorage>());
        return app;
    }

    private sealed class AdminOnly : IDashboardAuthorizationFilter
    {
        // Every project's jobs are listed there: an admin token bound to one project may not enter.
        public bool Authorize(DashboardContext context) => Access.ProjectAccess.IsServiceAdmin(context.GetHttpContext().User);
    }
}
