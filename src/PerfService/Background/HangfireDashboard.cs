using Hangfire;
using Hangfire.Dashboard;
using PerfService.Auth;

namespace PerfService.Background;

/// <summary>
/// Hangfire's dashboard under /hangfire, for admin tokens only. A browser cannot send a bearer header, so the token
/// is posted once to the login form (<see cref="HangfireLogin"/>), which sets an HttpOnly, SameSite=Strict cookie
/// honoured on /hangfire paths only: the API never accepts cookies, so it stays immune to cross-site request forgery.
/// A token in the query string is refused, not used: URLs end up in logs, history and Referer headers.
/// </summary>
public static class HangfireDashboard
{
    public const string Path = "/hangfire";
    public const string Cookie = "perf_hangfire";

    public static WebApplication MapHangfireAdminDashboard(this WebApplication app)
    {
        app.Use(
            async (http, next) =>
            {
                if (http.Request.Path.StartsWithSegments(Path) && http.Request.Query.ContainsKey("token"))
                {
                    await Results
                        .Problem(
                            $"tokens in URLs are refused: sign in at {HangfireLogin.Path}",
                            statusCode: StatusCodes.Status400BadRequest,
                            title: "Token in URL"
                        )
                        .ExecuteAsync(http);
                    return;
                }
                await next();
            }
        );
        app.MapHangfireLogin();
        app.MapHangfireDashboard(
            Path,
            new DashboardOptions
            {
                Authorization = [new AdminOnly()],
                DisplayStorageConnectionString = false,
                DashboardTitle = "PerfService background jobs",
            },
            app.Services.GetRequiredService<JobStorage>()
        );
        return app;
    }

    private sealed class AdminOnly : IDashboardAuthorizationFilter
    {
        // Every project's jobs are listed there: an admin token bound to one project may not enter.
        public bool Authorize(DashboardContext context) =>
            Access.ProjectAccess.IsServiceAdmin(context.GetHttpContext().User);
    }
}
