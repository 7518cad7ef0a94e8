using Microsoft.AspNetCore.Http.HttpResults;

namespace PerfService.Hosting.Http;

internal static class Problems
{
    public static ProblemHttpResult NotFound(string detail) =>
        TypedResults.Problem(statusCode: StatusCodes.Status404NotFound, title: "Not found", detail: detail);

    public static ProblemHttpResult BadRequest(string detail) =>
        TypedResults.Problem(statusCode: StatusCodes.Status400BadRequest, title: "Bad request", detail: detail);

    public static ProblemHttpResult ProjectNotFound(string slug) =>
        NotFound($"project '{slug}' does not exist or is not visible to this token");
}
