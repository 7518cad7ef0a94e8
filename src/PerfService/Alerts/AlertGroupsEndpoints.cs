using System.ComponentModel;
using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Dashboard;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Hosting.Http;

namespace PerfService.Alerts;

internal static class AlertGroupsEndpoints
{
    /// <summary>A project's alert groups, newest first. <c>state</c> is a state name or <c>open</c> (active or
    /// acknowledged).</summary>
    public static async Task<Results<Ok<Page<AlertGroupDto>>, ProblemHttpResult>> List(
        string slug,
        [Description("active, acknowledged, invalid, fixed, or open (active or acknowledged); default: all.")]
            string? state,
        string? cursor,
        [Description("Groups per page: 1–500, default 50.")] int? limit,
        PerfDbContext db,
        HttpRequest request,
        CancellationToken ct
    )
    {
        // The project is visible to this token: ProjectAccess checked the slug before this ran.
        var project = await db
            .Projects.AsNoTracking()
            .Where(p => p.Slug == slug)
            .Select(p => new { p.Id, p.Slug })
            .FirstOrDefaultAsync(ct);
        if (project is null)
            return Problems.ProjectNotFound(slug);
        var groups = db.AlertGroups.AsNoTracking().Where(g => g.ProjectId == project.Id);
        if (string.Equals(state, "open", StringComparison.OrdinalIgnoreCase))
            groups = groups.WhereOpen();
        else if (!string.IsNullOrEmpty(state))
        {
            if (!Enum.TryParse<AlertState>(state, ignoreCase: true, out var s) || int.TryParse(state, out _))
                return Problems.BadRequest("state is one of active, acknowledged, invalid, fixed, open");
            groups = groups.Where(g => g.State == s);
        }
        if (cursor is not null)
        {
            if (!Cursor.TryDecodeId(cursor, out var before))
                return Problems.BadRequest("cursor is not one this API gave out");
            groups = groups.Where(g => g.Id < before);
        }
        var take = Math.Clamp(limit ?? 50, 1, 500);
        var rows = await groups.OrderByDescending(g => g.Id).Take(take + 1).ToListAsync(ct);
        var items = await SummariseAsync(db, project.Slug, rows.Take(take).ToList(), ct);
        return TypedResults.Ok(
            new Page<AlertGroupDto>(
                items,
                rows.Count > take ? Cursor.NextLink(request, Cursor.Encode(items[^1].Id)) : null
            )
        );
    }

    public static async Task<Results<Ok<AlertGroupDetailDto>, ProblemHttpResult>> Get(
        long alertGroupId,
        PerfDbContext db,
        CancellationToken ct
    )
    {
        var detail = await DetailAsync(db, alertGroupId, ct);
        return detail is null
            ? Problems.NotFound($"alert group {alertGroupId} does not exist or is not visible to this token")
            : TypedResults.Ok(detail);
    }

    public static Task<Results<Ok<AlertGroupDetailDto>, ProblemHttpResult, ValidationProblem>> SetState(
        long alertGroupId,
        AlertStateRequest request,
        AlertTriage triage,
        ClaimsPrincipal user,
        CancellationToken ct
    ) => triage.ChangeGroupAsync(alertGroupId, request, user, ct);

    internal static async Task<AlertGroupDetailDto?> DetailAsync(PerfDbContext db, long id, CancellationToken ct)
    {
        var group = await db.AlertGroups.AsNoTracking().FirstOrDefaultAsync(g => g.Id == id, ct);
        if (group is null)
            return null;
        var slug = await db.AlertGroups.Where(g => g.Id == id).Select(g => g.Project!.Slug).FirstAsync(ct);
        var summary = (await SummariseAsync(db, slug, [group], ct))[0];
        var members = await AlertsEndpoints
            .Project(db, db.Alerts.AsNoTracking().Where(a => a.AlertGroupId == id).OrderBy(a => a.Id))
            .ToListAsync(ct);
        return new AlertGroupDetailDto(summary, members);
    }

    private sealed record Member(
        long Group,
        AlertKind Kind,
        long? BenchmarkId,
        string? Benchmark,
        string? Measure,
        string? Profile,
        double? Change
    );

    /// <summary>What each group covers, read from its members in one query for the whole page.</summary>
    private static async Task<List<AlertGroupDto>> SummariseAsync(
        PerfDbContext db,
        string slug,
        List<AlertGroup> groups,
        CancellationToken ct
    )
    {
        var ids = groups.Select(g => (long?)g.Id).ToArray();
        var members = await (
            from a in db.Alerts.AsNoTracking()
            where ids.Contains(a.AlertGroupId)
            join b in db.Benchmarks on a.BenchmarkId equals (long?)b.Id into bs
            from b in bs.DefaultIfEmpty()
            join m in db.Measures on a.MeasureId equals (long?)m.Id into ms
            from m in ms.DefaultIfEmpty()
            join p in db.Profiles on a.ProfileId equals (long?)p.Id into ps
            from p in ps.DefaultIfEmpty()
            orderby a.Id
            select new Member(a.AlertGroupId!.Value, a.Kind, a.BenchmarkId, b.Key, m.Name, p.Name, a.Change)
        ).ToListAsync(ct);
        return groups
            .Select(g =>
            {
                var mine = members.Where(m => m.Group == g.Id).ToList();
                var changes = mine.Select(m => m.Change).OfType<double>().Where(double.IsFinite).ToList();
                return new AlertGroupDto(
                    g.Id,
                    slug,
                    g.State.ToString(),
                    g.Scope,
                    g.FromCommit,
                    g.ToCommit,
                    mine.Count,
                    mine.Select(m => m.Kind.ToString()).Distinct().ToList(),
                    mine.Where(m => m.BenchmarkId is not null)
                        .Select(m => new AlertGroupBenchmarkDto(m.BenchmarkId!.Value, m.Benchmark ?? "", m.Measure))
                        .Distinct()
                        .OrderBy(b => b.Key, StringComparer.Ordinal)
                        .ToList(),
                    mine.Select(m => m.Profile).OfType<string>().Distinct().Order(StringComparer.Ordinal).ToList(),
                    changes.Count == 0 ? null : changes.MaxBy(Math.Abs),
                    Median(changes),
                    g.IssueUrl,
                    g.CreatedAt,
                    g.UpdatedAt
                );
            })
            .ToList();
    }

    private static double? Median(List<double> values)
    {
        if (values.Count == 0)
            return null;
        var sorted = values.Order().ToList();
        var mid = sorted.Count / 2;
        return sorted.Count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
