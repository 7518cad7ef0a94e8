using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using PerfService.Data;

namespace PerfService.Dashboard;

/// <summary>
/// One benchmark × measure on one branch over commit time, one line per profile (<c>profile</c> repeated, or omitted for
/// all), with the alerts on it. <c>limit</c> caps each line; when a line is cut, every line stops at the same point and
/// <c>next</c> continues from there, so paging visits each point exactly once.
/// </summary>
internal static class SeriesEndpoint
{
    public static async Task<Results<Ok<SeriesDto>, ContentHttpResult, ProblemHttpResult>> Get(
        string slug, long? benchmark, string? measure, string[]? profile, string? branch, DateTimeOffset? from, DateTimeOffset? to,
        int? limit, string? cursor, string? format, PerfDbContext db, SeriesQuery query, ClaimsPrincipal user, HttpRequest request,
        CancellationToken ct)
    {
        var project = await db.FindProjectAsync(user, slug, ct);
        if (project is null) return Problems.ProjectNotFound(slug);
        if (benchmark is null) return Problems.BadRequest("benchmark (an id from /benchmarks) is required");
        var afterAt = DateTimeOffset.MinValue;
        long afterRun = 0;
        if (cursor is not null && !Cursor.TryDecodeTimeAndId(cursor, out afterAt, out afterRun))
            return Problems.BadRequest("cursor is not one this API gave out");

        var (context, missing) = await query.ResolveAsync(project.Id, benchmark.Value, measure ?? "time", branch ?? project.DefaultBranch,
            profile is { Length: > 0 } ? profile : null, ct);
        if (context is null) return Problems.NotFound(missing!);

        var take = Math.Clamp(limit ?? 10_000, 1, 100_000);
        var rows = await query.ReadAsync(context, new SeriesRange(from ?? DateTimeOffset.MinValue, to ?? DateTimeOffset.MaxValue, afterAt, afterRun, take), ct);
        var (lines, last) = Page(context, rows, take);
        var next = last is { } l ? Cursor.NextLink(request, Cursor.Encode(l.SeriesAt, l.RunId)) : null;

        if (Csv.Wanted(request, format))
        {
            var csv = new Csv("profile", "run_id", "commit", "series_at", "value", "ci_lower", "ci_upper", "sample_count");
            foreach (var line in lines)
                foreach (var p in line.Points)
                    csv.Row(line.Profile, p.RunId, p.Commit, p.SeriesAt, p.Value, p.CiLower, p.CiUpper, p.SampleCount);
            if (next is not null) request.HttpContext.Response.Headers.Link = $"<{next}>; rel=\"next\"";
            return TypedResults.Text(csv.ToString(), "text/csv; charset=utf-8");
        }
        return TypedResults.Ok(new SeriesDto(context.Benchmark, context.Measure, branch ?? project.DefaultBranch, lines, rows.Markers, next));
    }

    /// <summary>Cuts every line at the earliest point where some line hit the limit; that point is the next cursor.</summary>
    private static (List<SeriesLineDto> Lines, SeriesPointDto? Last) Page(SeriesContext context, SeriesRows rows, int take)
    {
        var byProfile = rows.Points.GroupBy(p => p.ProfileId).ToDictionary(g => g.Key, g => g.Select(p => p.Point).ToList());
        SeriesPointDto? cut = null;
        foreach (var points in byProfile.Values.Where(p => p.Count > take))
            if (cut is null || Compare(points[take - 1], cut) < 0) cut = points[take - 1];

        var lines = new List<SeriesLineDto>();
        foreach (var (id, name) in context.Profiles)
        {
            if (!byProfile.TryGetValue(id, out var points)) continue;
            lines.Add(new SeriesLineDto(name, cut is null ? points : points.TakeWhile(p => Compare(p, cut) <= 0).ToList()));
        }
        return (lines, cut);
    }

    private static int Compare(SeriesPointDto a, SeriesPointDto b)
    {
        var byTime = a.SeriesAt.CompareTo(b.SeriesAt);
        return byTime != 0 ? byTime : a.RunId.CompareTo(b.RunId);
    }
}
