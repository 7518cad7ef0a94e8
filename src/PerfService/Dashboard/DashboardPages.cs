using Microsoft.AspNetCore.Http.HttpResults;

namespace PerfService.Dashboard;

/// <summary>
/// Pages are also reachable without their extension (/explorer → explorer.html). API-like paths never fall back to a
/// page, so an unknown API route still answers 404 with ProblemDetails.
/// </summary>
internal static class DashboardPages
{
    private static readonly string[] _notPages = ["api/", "openapi/", "hangfire"];

    public static void MapDashboardPages(this WebApplication app) =>
        app.MapFallback("{*path:nonfile}", Serve)
            .WithMetadata(new HttpMethodMetadata([HttpMethods.Get, HttpMethods.Head]))
            .ExcludeFromDescription();

    private static Results<FileStreamHttpResult, ProblemHttpResult> Serve(
        string? path,
        HttpContext http,
        IWebHostEnvironment env
    )
    {
        var page = (path ?? "").Trim('/');
        if (_notPages.Any(p => page.StartsWith(p, StringComparison.OrdinalIgnoreCase)) || page.Contains('/'))
            return NotFound(page);
        var file = env.WebRootFileProvider.GetFileInfo((page.Length == 0 ? "index" : page) + ".html");
        if (!file.Exists)
            return NotFound(page);
        SecurityHeaders.Apply(http.Response);
        http.Response.Headers.CacheControl = "no-cache";
        return TypedResults.Stream(file.CreateReadStream(), "text/html; charset=utf-8");
    }

    private static ProblemHttpResult NotFound(string path) =>
        TypedResults.Problem(
            statusCode: StatusCodes.Status404NotFound,
            title: "Not Found",
            detail: $"nothing at /{path}"
        );
}
