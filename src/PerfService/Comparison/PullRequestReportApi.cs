using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Auth;
using PerfService.Core.Reports;
using PerfService.Dashboard;
using PerfService.Data;

namespace PerfService.Comparison;

public static class PullRequestReportApi
{
    /// <summary>A pull request's report as data, and as the comment PerfService posts (or would post) on GitHub.</summary>
    public static RouteGroupBuilder MapPullRequestReportApi(this IEndpointRouteBuilder app)
    {
        var api = app.MapGroup("/api/v1/projects/{slug}/pulls/{pr:int}").WithTags("Pull requests").RequireRateLimiting(DashboardRateLimiting.Policy);
        api.MapGet("/report", async Task<Results<Ok<PullRequestReport>, NotFound>> (string slug, int pr, PerfDbContext db, PullRequestReports reports, HttpContext http, CancellationToken ct) =>
            await Find(slug, db, http, ct) is { } id && await reports.BuildAsync(id, pr, ct) is { } report ? TypedResults.Ok(report) : TypedResults.NotFound());
        api.MapGet("/comment", async Task<Results<ContentHttpResult, NotFound>> (string slug, int pr, PerfDbContext db, PullRequestReports reports, HttpContext http, CancellationToken ct) =>
            await Find(slug, db, http, ct) is { } id && await reports.BuildAsync(id, pr, ct) is { } report
                ? TypedResults.Text(CommentRenderer.Render(report), "text/markdown; charset=utf-8")
                : TypedResults.NotFound());
        return api;
    }

    private static async Task<long?> Find(string slug, PerfDbContext db, HttpContext http, CancellationToken ct)
    {
        var seePrivate = http.User.HasAnyScope(Scopes.Read, Scopes.Admin);
        return await db.Projects.Where(p => p.Slug == slug && (p.IsPublic || seePrivate)).Select(p => (long?)p.Id).FirstOrDefaultAsync(ct);
    }
}
