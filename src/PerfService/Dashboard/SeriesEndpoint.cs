using System.ComponentModel;
using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using PerfService.Access;
using PerfService.Data;
using PerfService.Hosting.Http;

namespace PerfService.Dashboard;

/// <summary>
/// One benchmark × measure on one branch over commit time, one line per profile (<c>profile</c> repeated, or omitted
/// for
/// all), with the alerts on it. <c>limit</c> caps each line; when a line is cut, every line stops at the same point and
/// <c>next</c> continues from there, so paging visits each point exactly once. <c>format</c>: json (one object per
/// point), columns (one array per field, the dashboard's), or csv.
/// </summary>
internal static class SeriesEndpoint
{
    private static readonly HashSet<string> Formats = new(["json", "columns", "csv"], StringComparer.OrdinalIgnoreCase);

    public static async Task<Results<SeriesJson, Csv, ProblemHttpResult>> Get(
        string slug,
        [Description("The benchmark's id (from GET /api/v1/projects/{slug}/benchmarks). Required.")] long? benchmark,
        [Description("What was measured: time (default), allocated, or a custom measure the harness reported.")]
            string? measure,
        [Description("A profile name; repeat for several lines, omit for every profile.")] string[]? profile,
        [Description("The branch; default: the project's default branch.")] string? branch,
        [Description("Only points committed at or after this time (ISO 8601).")] DateTimeOffset? from,
        [Description("Only points committed at or before this time (ISO 8601).")] DateTimeOffset? to,
        [Description("Points per line and page: 1–100000, default 10000.")] int? limit,
        string? cursor,
        [Description("json (default, one object per point), columns (one array per field) or csv.")] string? format,
        PerfDbContext db,
        SeriesQuery query,
        ClaimsPrincipal user,
        HttpRequest request,
        CancellationToken ct
    )
    {
        var project = await db.FindProjectAsync(user, slug, ct);
        if (project is null)
            return Problems.ProjectNotFound(slug);
        if (benchmark is null)
            return Problems.BadRequest("benchmark (an id from /benchmarks) is required");
        if (format is not null && !Formats.Contains(format))
            return Problems.BadRequest("format is json, columns or csv");
        var afterAt = DateTimeOffset.MinValue;
        long afterRun = 0;
        if (cursor is not null && !Cursor.TryDecodeTimeAndId(cursor, out afterAt, out afterRun))
            return Problems.BadRequest("cursor is not one this API gave out");

        var (context, missing) = await query.ResolveAsync(
            project.Id,
            benchmark.Value,
            measure ?? "time",
            branch ?? project.DefaultBranch,
            (branch ?? project.DefaultBranch) == project.DefaultBranch,
            profile is { Length: > 0 } ? profile : null,
            ct
        );
        if (context is null)
            return Problems.NotFound(missing!);

        var take = Math.Clamp(limit ?? 10_000, 1, 100_000);
        var rows = await query.ReadAsync(
            context,
            new SeriesRange(from ?? DateTimeOffset.MinValue, to ?? DateTimeOffset.MaxValue, afterAt, afterRun, take),
            ct
        );
        var next = SeriesLine.Cut(rows.Lines, take) is { } last
            ? Cursor.NextLink(request, Cursor.Encode(last.At, last.RunId))
            : null;

        if (Csv.Wanted(request, format))
        {
            if (next is not null)
                request.HttpContext.Response.Headers.Link = $"<{next}>; rel=\"next\"";
            return new Csv(
                ["profile", "run_id", "commit", "series_at", "value", "ci_lower", "ci_upper", "sample_count"],
                rows.Lines.SelectMany(line =>
                    line.Points.Select(p =>
                        new object?[] { line.Profile, p.RunId, p.Commit, p.At, p.Value, p.Lower, p.Upper, p.Samples }
                    )
                )
            );
        }
        return new SeriesJson(
            new SeriesDocument(
                context.Benchmark,
                context.Measure,
                branch ?? project.DefaultBranch,
                rows.Lines,
                rows.Markers,
                next
            ),
            columns: string.Equals(format, "columns", StringComparison.OrdinalIgnoreCase)
        );
    }
}
