using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using PerfService.Access;
using PerfService.Data;

namespace PerfService.Dashboard;

internal static class CompareEndpoint
{
    public static async Task<Results<Ok<CompareDto>, ProblemHttpResult>> Get(
        string slug, string? @base, string? head, string? profile, PerfDbContext db, CompareQuery query, ClaimsPrincipal user, CancellationToken ct)
    {
        var project = await db.FindProjectAsync(user, slug, ct);
        if (project is null) return Problems.ProjectNotFound(slug);
        if (string.IsNullOrWhiteSpace(@base) || string.IsNullOrWhiteSpace(head))
            return Problems.BadRequest("base and head are required: a commit sha (or prefix) or a run id each");
        var (result, problem) = await query.CompareAsync(project.Id, @base.Trim(), head.Trim(), profile, ct);
        return result is null ? problem! : TypedResults.Ok(result);
    }
}
