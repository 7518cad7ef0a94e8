using PerfService.Hosting.Http;

namespace PerfService.Dashboard;

/// <summary>
/// The read side of the history: what the dashboard's pages fetch, also for scripts (JSON, or CSV with format=csv or
/// Accept: text/csv; the series also as columns with format=columns). Public projects are readable anonymously; private
/// ones need a read or admin token.
/// </summary>
public static class DashboardApi
{
    public static RouteGroupBuilder MapDashboardApi(this IEndpointRouteBuilder app)
    {
        var api = app.MapGroup("/api/v1").WithTags("History").RequireRateLimiting(DashboardRateLimiting.Policy);

        api.MapGet("/projects/{slug}/overview", OverviewEndpoint.Get)
            .WithSummary("Get a project's overview: latest runs, alert counts, failed targets");
        api.MapGet("/projects/{slug}/benchmarks", BenchmarksEndpoint.Search)
            .WithSummary("Search a project's benchmarks")
            .WithDescription("Filter by parameters with param.NAME=VALUE (repeatable); q matches name or key.");
        api.MapGet("/projects/{slug}/series", SeriesEndpoint.Get)
            .WithSummary("Get a benchmark's history on a branch, one line per profile")
            .WithDescription(SeriesOpenApi.Description)
            .AddOpenApiOperationTransformer(SeriesOpenApi.DescribeResponsesAsync);
        api.MapGet("/projects/{slug}/compare", CompareEndpoint.Get)
            .WithSummary("Compare two commits or runs benchmark by benchmark");
        api.MapGet("/projects/{slug}/disturbance", DisturbanceEndpoint.Get)
            .WithSummary("Get what disturbed a profile's latest measured runs, oldest first");

        return api;
    }
}
