using PerfService.Auth;
using PerfService.Core.Contracts;

namespace PerfService.Ingestion;

public static class IngestionApi
{
    public static WebApplicationBuilder AddIngestion(this WebApplicationBuilder builder)
    {
        builder.Services.AddOptions<IngestOptions>().BindConfiguration("Ingest").ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddSingleton<UploadReader>();
        builder.Services.AddSingleton<RunWriter>();
        builder.Services.AddScoped<IngestService>();
        return builder;
    }

    public static RouteGroupBuilder MapIngestionApi(this IEndpointRouteBuilder app)
    {
        var api = app.MapGroup("/api/v1").WithTags("Ingestion").RequireAuthorization(Scopes.Ingest);
        api.MapPost("/runs", PostRun).DisableAntiforgery()
            .Produces<RunCreated>(StatusCodes.Status201Created).Produces<RunCreated>(StatusCodes.Status200OK)
            .ProducesProblem(400).ProducesProblem(413).ProducesProblem(422);
        return api;
    }

    private static async Task<IResult> PostRun(HttpContext http, UploadReader reader, IngestService ingest, CancellationToken ct)
    {
        try
        {
            var upload = await reader.ReadAsync(http.Request, ct);
            string? key = http.Request.Headers["Idempotency-Key"];
            var tokenProject = Access.ProjectAccess.BoundProject(http.User);
            var created = await ingest.IngestAsync(upload, string.IsNullOrWhiteSpace(key) ? null : key, tokenProject, ct);
            return created.Duplicate
                ? TypedResults.Ok(created)
                : TypedResults.Created($"/api/v1/runs/{created.RunId}", created);
        }
        catch (UploadException e)
        {
            return e.ToProblem();
        }
    }
}
