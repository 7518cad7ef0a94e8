using PerfService.Data;

namespace PerfService.Access;

/// <summary>
/// Applies <see cref="ProjectAccess"/> to every endpoint, whoever maps it: after authentication and the scope policies,
/// a route that names a project, run, alert or job is traced to its project and refused (404 hidden, 403 not the
/// token's project) before the handler runs. A handler finds the checked project with <see cref="Project"/>. GET and
/// HEAD read; every other method acts.
/// </summary>
public static class ProjectAccessMiddleware
{
    private static readonly object _key = new();

    public static WebApplication UseProjectAccess(this WebApplication app)
    {
        app.Use(CheckAsync);
        return app;
    }

    /// <summary>The project the route named, checked; only on routes with a project-owned parameter.</summary>
    public static ResolvedProject Project(this HttpContext http) =>
        http.Items[_key] as ResolvedProject
        ?? throw new InvalidOperationException("this route names no project-owned resource");

    private static async Task CheckAsync(HttpContext http, RequestDelegate next)
    {
        var values = http.Request.RouteValues;
        if (http.GetEndpoint() is null || !ProjectResources.Owned.Any(values.ContainsKey))
        {
            await next(http);
            return;
        }
        var db = http.RequestServices.GetRequiredService<PerfDbContext>();
        var acting = !(HttpMethods.IsGet(http.Request.Method) || HttpMethods.IsHead(http.Request.Method));
        foreach (var parameter in ProjectResources.Owned)
        {
            if (values[parameter]?.ToString() is not { } value)
                continue;
            var project = await ProjectResources.ResolveAsync(db, parameter, value, http.RequestAborted);
            var decision = project is null
                ? AccessDecision.Hidden
                : ProjectAccess.Decide(http.User, project.Id, project.IsPublic, acting);
            if (decision != AccessDecision.Allowed)
            {
                await RefuseAsync(http, decision, parameter, value);
                return;
            }
            http.Items[_key] = project;
        }
        await next(http);
    }

    private static Task RefuseAsync(HttpContext http, AccessDecision decision, string parameter, string value)
    {
        var what = parameter == ProjectResources.Slug ? $"project '{value}'" : $"{parameter[..^2]} {value}";
        var (status, title, detail) =
            decision == AccessDecision.Hidden
                ? (StatusCodes.Status404NotFound, "Not found", $"{what} does not exist or is not visible to this token")
                : (
                    StatusCodes.Status403Forbidden,
                    "Forbidden",
                    $"this token is bound to another project and may not act on {what}"
                );
        http.Response.StatusCode = status;
        return Results.Problem(statusCode: status, title: title, detail: detail).ExecuteAsync(http);
    }
}
