using System.Text.Json.Nodes;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;
using PerfService.ApiReference;
using PerfService.Core.Contracts;

namespace PerfService.Ingestion;

/// <summary>
/// The upload's entry in the OpenAPI document. The handler reads the multipart body itself (to stream and bound it:
/// UploadReader), so nothing describes the body from the signature; it is described here, with a working example.
/// </summary>
internal static class RunUploadOpenApi
{
    public const string Description =
        "multipart/form-data: one `run` part (RunMetadata as JSON) and one `files` part per result file, named by its path "
        + "relative to the upload root (e.g. `BenchmarkDotNet.Artifacts/results/X-report-full-compressed.json`). The format "
        + "(bdn, criterion, gobench, k6, json, …) is detected unless `run.format` names it. 201 with the new run; 200 with the "
        + "stored run when the Idempotency-Key was seen before. Sizes and file counts are bounded (Ingest options): 413 past them.";

    public static async Task DescribeBodyAsync(
        OpenApiOperation operation,
        OpenApiOperationTransformerContext context,
        CancellationToken ct
    )
    {
        var metadata = await context.AddSchemaAsync<RunMetadata>(ct);
        operation.RequestBody = new OpenApiRequestBody
        {
            Required = true,
            Description = "The run's metadata and its result files.",
            Content = new Dictionary<string, OpenApiMediaType>
            {
                ["multipart/form-data"] = new()
                {
                    Schema = new OpenApiSchema
                    {
                        Type = JsonSchemaType.Object,
                        Required = new HashSet<string> { "run", "files" },
                        Properties = new Dictionary<string, IOpenApiSchema>
                        {
                            ["run"] = metadata,
                            ["files"] = new OpenApiSchema
                            {
                                Type = JsonSchemaType.Array,
                                Description =
                                    "The harness's output files; each part's file name is its path relative to the upload root.",
                                Items = new OpenApiSchema { Type = JsonSchemaType.String, Format = "binary" },
                            },
                        },
                    },
                    Encoding = new Dictionary<string, OpenApiEncoding>
                    {
                        ["run"] = new() { ContentType = "application/json" },
                        ["files"] = new() { ContentType = "application/octet-stream" },
                    },
                    Examples = new Dictionary<string, IOpenApiExample>
                    {
                        ["main"] = new OpenApiExample
                        {
                            Summary = "A commit on main, BenchmarkDotNet results",
                            Value = new JsonObject
                            {
                                ["run"] = new JsonObject
                                {
                                    ["project"] = "rivulet",
                                    ["commit"] = "4f2c9d1e8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d",
                                    ["branch"] = "main",
                                    ["committedAt"] = "2026-03-01T12:00:00Z",
                                    ["profile"] = "linux-x64-4c",
                                    ["suite"] = "Rivulet.Benchmarks",
                                    ["format"] = "bdn",
                                },
                                ["files"] = new JsonArray(
                                    "BenchmarkDotNet.Artifacts/results/Rivulet.Benchmarks.Pipeline-report-full-compressed.json"
                                ),
                            },
                        },
                        ["pullRequest"] = new OpenApiExample
                        {
                            Summary = "A pull request's head commit, Go benchmarks",
                            Value = new JsonObject
                            {
                                ["run"] = new JsonObject
                                {
                                    ["project"] = "dcb",
                                    ["commit"] = "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d",
                                    ["pullRequest"] = 42,
                                    ["baseCommit"] = "4f2c9d1e8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d",
                                    ["profile"] = "linux-x64-4c",
                                    ["format"] = "gobench",
                                },
                                ["files"] = new JsonArray("bench.txt"),
                            },
                        },
                    },
                },
            },
        };
        operation.Parameters ??= [];
        operation.Parameters.Add(
            new OpenApiParameter
            {
                Name = "Idempotency-Key",
                In = ParameterLocation.Header,
                Description =
                    "Makes a retried upload safe: a key seen before answers 200 with the run it stored, and stores nothing twice.",
                Schema = new OpenApiSchema { Type = JsonSchemaType.String, MaxLength = 200 },
            }
        );
    }
}
