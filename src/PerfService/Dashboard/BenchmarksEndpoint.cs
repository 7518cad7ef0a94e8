using System.ComponentModel;
using System.Security.Claims;
using System.Text.Json;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Access;
using PerfService.Data;
using PerfService.Hosting.Http;

namespace PerfService.Dashboard;

/// <summary>
/// Search of a project's benchmarks: <c>q</c> is a substring of the name or key (ILIKE, with % and _ taken literally),
/// every <c>param.NAME=VALUE</c> must match (jsonb containment), <c>suite</c> is a suite name. Ordered by id; the
/// cursor is the last id of the page.
/// </summary>
internal static class BenchmarksEndpoint
{
    private const string ParamPrefix = "param.";

    public static async Task<Results<Ok<Page<BenchmarkItemDto>>, ProblemHttpResult>> Search(
        string slug,
        [Description("A substring of the benchmark's name or key (case-insensitive).")] string? q,
        [Description("Only this suite's benchmarks.")] string? suite,
        string? cursor,
        [Description("Benchmarks per page: 1–1000, default 100.")] int? limit,
        PerfDbContext db,
        ClaimsPrincipal user,
        HttpRequest request,
        CancellationToken ct
    )
    {
        var project = await db.FindProjectAsync(user, slug, ct);
        if (project is null)
            return Problems.ProjectNotFound(slug);
        long after = 0;
        if (cursor is not null && !Cursor.TryDecodeId(cursor, out after))
            return Problems.BadRequest("cursor is not one this API gave out");
        var take = Math.Clamp(limit ?? 100, 1, 1000);

        var suites = db.Suites.Where(s => s.ProjectId == project.Id && (suite == null || s.Name == suite));
        var benchmarks = db.Benchmarks.AsNoTracking().Where(b => suites.Any(s => s.Id == b.SuiteId) && b.Id > after);
        if (!string.IsNullOrWhiteSpace(q))
        {
            var pattern = "%" + EscapeLike(q.Trim()) + "%";
            benchmarks = benchmarks.Where(b =>
                EF.Functions.ILike(b.Name, pattern, "\\") || EF.Functions.ILike(b.Key, pattern, "\\")
            );
        }
        var parameters = request
            .Query.Where(p =>
                p.Key.StartsWith(ParamPrefix, StringComparison.Ordinal) && p.Key.Length > ParamPrefix.Length
            )
            .ToDictionary(p => p.Key[ParamPrefix.Length..], p => p.Value.ToString());
        if (parameters.Count > 0)
        {
            var contained = JsonSerializer.Serialize(parameters);
            benchmarks = benchmarks.Where(b => EF.Functions.JsonContains(b.Parameters, contained));
        }

        var rows = await benchmarks
            .OrderBy(b => b.Id)
            .Take(take + 1)
            .Select(b => new
            {
                b.Id,
                b.Key,
                b.Name,
                b.Parameters,
                b.Job,
                Suite = b.Suite!.Name,
                // One index probe per known measure: cheaper than DISTINCT over a benchmark's whole history.
                Measures = db
                    .Measures.Where(m => db.Results.Any(r => r.BenchmarkId == b.Id && r.MeasureId == m.Id))
                    .OrderBy(m => m.Name)
                    .Select(m => new
                    {
                        m.Name,
                        m.Unit,
                        m.Direction,
                    })
                    .ToList(),
            })
            .ToListAsync(ct);

        var items = rows.Take(take)
            .Select(b => new BenchmarkItemDto(
                b.Id,
                b.Key,
                b.Name,
                b.Suite,
                ParseParameters(b.Parameters),
                b.Job,
                b.Measures.Select(m => new MeasureDto(m.Name, m.Unit, m.Direction.ToString())).ToList()
            ))
            .ToList();
        var next = rows.Count > take ? Cursor.NextLink(request, Cursor.Encode(items[^1].Id)) : null;
        return TypedResults.Ok(new Page<BenchmarkItemDto>(items, next));
    }

    internal static IReadOnlyDictionary<string, string> ParseParameters(string json) =>
        JsonSerializer.Deserialize<Dictionary<string, string>>(json) ?? [];

    private static string EscapeLike(string text) => text.Replace("\\", "\\\\").Replace("%", "\\%").Replace("_", "\\_");
}
