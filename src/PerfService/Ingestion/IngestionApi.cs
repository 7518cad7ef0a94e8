using PerfService.Auth;
using PerfService.Core.Contracts;

namespace PerfService.Ingestion;

public static class IngestionApi
{
    public static WebApplicationBuilder AddIngestion(this WebApplicationBuilder builder)
    {
        builder
            .Services.AddOptions<IngestOptions>()
            .BindConfiguration("Ingest")
            .ValidateDataAnnotations()
            .ValidateOnStart();
        builder.Services.AddSingleton<UploadReader>();
        builder.Services.AddSingleton<UploadGate>();
        builder.Services.AddSingleton<RunWriter>();
        builder.Services.AddScoped<IngestService>();
        return builder;
    }

    public static RouteGroupBuilder MapIngestionApi(this IEndpointRouteBuilder app)
    {
        var api = app.MapGroup("/api/v1").WithTags("Ingestion").RequireAuthorization(Scopes.Ingest);
        api.MapPost("/runs", PostRun)
            .DisableAntiforgery()
            .WithSummary("Upload a run's results")
            .WithDescription(RunUploadOpenApi.Description)
            .AddOpenApiOperationTransformer(RunUploadOpenApi.DescribeBodyAsync)
            .Produces<RunCreated>(StatusCodes.Status201Created)
            .Produces<RunCreated>(StatusCodes.Status200OK)
            .ProducesProblem(400)
            .ProducesProblem(403)
            .ProducesProblem(409)
            .ProducesProblem(413)
            .ProducesProblem(422)
            .ProducesProblem(503);
        return api;
    }

    private static async Task<IResult> PostRun(
        HttpContext http,
        UploadReader reader,
        UploadGate gate,
        IngestService ingest,
        CancellationToken ct
    )
    {
        using var slot = await gate.EnterAsync(ct);
        if (slot is null)
        {
            http.Response.Headers.RetryAfter = "5";
            return TypedResults.Problem(
                "too many uploads are being stored at once; retry after the Retry-After delay",
                statusCode: StatusCodes.Status503ServiceUnavailable,
                title: "Uploads busy"
            );
        }
        try
        {
            using var upload = await reader.ReadAsync(http.Request, ct);
            string? key = http.Request.Headers["Idempotency-Key"];
            var created = await ingest.IngestAsync(
                upload,
                string.IsNullOrWhiteSpace(key) ? null : key,
                RunPoster.From(http.User),
                ct
            );
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
