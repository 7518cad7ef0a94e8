using Scalar.AspNetCore;

namespace PerfService.ApiReference;

/// <summary>
/// The OpenAPI document (<c>/openapi/v1.json</c>) and its rendering as an API reference with examples and try-it
/// (Scalar, at <c>/api-reference</c>). What the document says beyond the endpoints' own metadata is added here, once
/// for all endpoints: the bearer scheme and each operation's scopes (<see cref="OpenApiSecurity"/>) and the route
/// parameters shared by many endpoints (<see cref="RouteParameters"/>). Summaries stay next to the endpoints
/// (WithSummary).
/// </summary>
public static class ApiReferenceSetup
{
    public const string ReferencePath = "/api-reference";

    public static WebApplicationBuilder AddApiReference(this WebApplicationBuilder builder)
    {
        builder.Services.AddOpenApi(o =>
        {
            o.AddDocumentTransformer(
                (document, _, _) =>
                {
                    document.Info.Title = "PerfService API";
                    document.Info.Description = Introduction;
                    OpenApiSecurity.DeclareScheme(document);
                    return Task.CompletedTask;
                }
            );
            o.AddOperationTransformer(OpenApiSecurity.RequireScopes);
            o.AddOperationTransformer(RouteParameters.Describe);
        });
        return builder;
    }

    public static WebApplication MapApiReference(this WebApplication app)
    {
        // The document is built from every endpoint's metadata on each request: not free, so rate-limited.
        app.MapOpenApi().RequireRateLimiting(Hosting.Http.DashboardRateLimiting.Policy);
        // The page and its script come from the package (embedded). Nothing goes to another origin: the default fonts
        // (Scalar's CDN), the telemetry ping, the AI agent and MCP, and the hosted developer tools are off.
        app.MapScalarApiReference(
            ReferencePath,
            o =>
                o.WithTitle("PerfService API")
                    .WithFavicon("/favicon.svg")
                    .DisableDefaultFonts()
                    .DisableTelemetry()
                    .DisableAgent()
                    .DisableMcp()
                    .HideDeveloperTools()
                    .WithDotNetFlag(false)
                    .ExpandAllTags()
                    .AddPreferredSecuritySchemes(OpenApiSecurity.BearerScheme)
                    .WithDefaultHttpClient(ScalarTarget.Shell, ScalarClient.Curl)
        );
        return app;
    }

    private const string Introduction =
        "The REST API of PerfService: results in (`POST /api/v1/runs`), history, comparisons, alerts and the agents' job queue out. "
        + "Send a token as `Authorization: Bearer perf_…` (`./perf token create`). Public projects are readable without one; "
        + "each operation lists the scopes it accepts. A token bound to a project acts on that project only. "
        + "Errors are RFC 9457 problem details.";
}
