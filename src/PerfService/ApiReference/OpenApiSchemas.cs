using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace PerfService.ApiReference;

/// <summary>For operation transformers that describe what endpoint metadata cannot (a body read by hand, several
/// shapes).</summary>
internal static class OpenApiSchemas
{
    /// <summary>Adds <typeparamref name="T"/>'s schema to the document's components and returns a reference to
    /// it.</summary>
    public static async Task<OpenApiSchemaReference> AddSchemaAsync<T>(
        this OpenApiOperationTransformerContext context,
        CancellationToken ct
    )
    {
        var document =
            context.Document ?? throw new InvalidOperationException($"no OpenAPI document to add {typeof(T).Name} to");
        document.AddComponent(typeof(T).Name, await context.GetOrCreateSchemaAsync(typeof(T), null, ct));
        return new OpenApiSchemaReference(typeof(T).Name, document);
    }
}
