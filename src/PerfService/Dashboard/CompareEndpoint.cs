using System.ComponentModel;
using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using PerfService.Access;
using PerfService.Data;
using PerfService.Hosting.Http;

namespace PerfService.Dashboard;

internal static class CompareEndpoint
{
    public static async Task<Results<Ok<CompareDto>, ProblemHttpResult>> Get(
        string slug,
        [Description("The base side: a commit SHA (or a unique prefix) or run:ID. Required.")] string? @base,
        [Description("The head side: a commit SHA (or a unique prefix) or run:ID. Required.")] string? head,
        [Description("Compare on this profile only; default: every profile both sides have.")] string? profile,
        PerfDbContext db,
        CompareQuery query,
        ClaimsPrincipal user,
        CancellationToken ct
    )
    {
        var project = await db.FindProjectAsync(user, slug, ct);
        if (project is null)
            return Problems.ProjectNotFound(slug);
        if (string.IsNullOrWhiteSpace(@base) || string.IsNullOrWhiteSpace(head))
            return Problems.BadRequest("base and head are required: a commit sha (or prefix) or a run id each");
        var (result, problem) = await query.CompareAsync(project.Id, @base.Trim(), head.Trim(), profile, ct);
        return result is null ? problem! : TypedResults.Ok(result);
    }
}
