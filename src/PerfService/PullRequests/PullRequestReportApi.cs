using Microsoft.AspNetCore.Http.HttpResults;
using PerfService.Access;
using PerfService.Core.Reports;
using PerfService.Hosting.Http;

namespace PerfService.PullRequests;

public static class PullRequestReportApi
{
    /// <summary>A pull request's report as data, and as the comment PerfService posts (or would post) on
    /// GitHub.</summary>
    public static RouteGroupBuilder MapPullRequestReportApi(this IEndpointRouteBuilder app)
    {
        var api = app.MapGroup("/api/v1/projects/{slug}/pulls/{pr:int}")
            .WithTags("Pull requests")
            .RequireRateLimiting(DashboardRateLimiting.Policy);
        api.MapGet(
                "/report",
                async Task<Results<Ok<PullRequestReport>, NotFound>> (
                    int pr,
                    PullRequestReports reports,
                    HttpContext http,
                    CancellationToken ct
                ) =>
                    await reports.BuildAsync(http.Project().Id, pr, ct) is { } report
                        ? TypedResults.Ok(report)
                        : TypedResults.NotFound()
            )
            .WithSummary("Get a pull request's report: verdicts, targets and jobs");
        api.MapGet(
                "/comment",
                async Task<Results<ContentHttpResult, NotFound>> (
                    int pr,
                    PullRequestReports reports,
                    HttpContext http,
                    CancellationToken ct
                ) =>
                    await reports.BuildAsync(http.Project().Id, pr, ct) is { } report
                        ? TypedResults.Text(CommentRenderer.Render(report), "text/markdown; charset=utf-8")
                        : TypedResults.NotFound()
            )
            .WithSummary("Get a pull request's report as the Markdown comment posted on GitHub");
        return api;
    }
}
