using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;
using PerfService.ApiReference;

namespace PerfService.Dashboard;

/// <summary>
/// The series' entry in the OpenAPI document. Its 200 has two JSON shapes and CSV, chosen by <c>format</c>; endpoint
/// metadata keeps one type per status code, so the operation is completed here.
/// </summary>
internal static class SeriesOpenApi
{
    public const string Description =
        "format=json (default): one object per point (SeriesDto). format=columns: the same data as one array per field "
        + "(SeriesColumnsDto: runIds; commits as indexes into shas, where each commit is sent once; times in Unix milliseconds; "
        + "values, lower, upper, samples), about half the bytes; the dashboard reads this one. format=csv (or Accept: text/csv): one row per point.";

    public static async Task DescribeResponsesAsync(
        OpenApiOperation operation,
        OpenApiOperationTransformerContext context,
        CancellationToken ct
    )
    {
        // SeriesDto is already a component (it is the endpoint's declared type); the columns shape joins it.
        var columns = await context.AddSchemaAsync<SeriesColumnsDto>(ct);
        var points = new OpenApiSchemaReference(nameof(SeriesDto), context.Document);
        operation.Responses ??= [];
        operation.Responses["200"] = new OpenApiResponse
        {
            Description = "OK",
            Content = new Dictionary<string, OpenApiMediaType>
            {
                ["application/json"] = new() { Schema = new OpenApiSchema { OneOf = [points, columns] } },
                ["text/csv"] = new() { Schema = new OpenApiSchema { Type = JsonSchemaType.String } },
            },
        };
    }
}
