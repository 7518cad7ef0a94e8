using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace PerfService.ApiReference;

/// <summary>
/// Descriptions of the parameters many endpoints share (the route's resources, which ProjectAccess traces to a project,
/// and the paging cursor), written once. Other parameters are described where they are declared, with [Description] on
/// the handler's parameter.
/// </summary>
internal static class RouteParameters
{
    private static readonly Dictionary<string, string> _descriptions = new()
    {
        ["slug"] = "The project's slug, as in its dashboard URL (e.g. `rivulet`).",
        ["runId"] = "A run's id, as returned by `POST /api/v1/runs`.",
        ["alertId"] = "An alert's id.",
        ["alertGroupId"] = "An alert group's id (alerts of one project whose commit ranges overlap).",
        ["jobId"] = "A job's id, as returned by a claim or `GET /api/v1/jobs`.",
        ["agentId"] = "The agent's id, as returned by `POST /api/v1/agents/register`.",
        ["pr"] = "The pull request's number on GitHub.",
        ["cpuProfileId"] = "A stored CPU profile's id, as listed by a job's, pull request's or alert's profiles.",
        ["path"] = "The artifact's path inside the run's upload (as listed by `GET /api/v1/runs/{runId}`).",
    };

    private static readonly Dictionary<string, string> _query = new()
    {
        ["cursor"] = "Where the page starts: the cursor from the previous page's `next` link. Omit for the first page.",
    };

    public static Task Describe(
        OpenApiOperation operation,
        OpenApiOperationTransformerContext context,
        CancellationToken ct
    )
    {
        foreach (var parameter in operation.Parameters ?? [])
            if (
                parameter is OpenApiParameter { Description: null } p
                && (
                    p.In == ParameterLocation.Path ? _descriptions
                    : p.In == ParameterLocation.Query ? _query
                    : []
                ).TryGetValue(p.Name ?? "", out var text)
            )
                p.Description = text;
        return Task.CompletedTask;
    }
}
