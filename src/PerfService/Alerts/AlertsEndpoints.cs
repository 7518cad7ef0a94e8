using System.ComponentModel;
using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Access;
using PerfService.Dashboard;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Hosting.Http;

namespace PerfService.Alerts;

internal static class AlertsEndpoints
{
    /// <summary>Alerts of the visible projects, newest first. <c>state</c> is a state name or <c>open</c> (active or
    /// acknowledged);
    /// <c>ungrouped=true</c> keeps the alerts in no group (those opened before groups existed).</summary>
    public static async Task<Results<Ok<Page<AlertDto>>, ProblemHttpResult>> List(
        [Description("Only this project's alerts (its slug).")] string? project,
        [Description("active, acknowledged, invalid, fixed, or open (active or acknowledged); default: all.")]
            string? state,
        [Description("Only alerts on this profile (its name).")] string? profile,
        [Description("true: only the alerts in no group (opened before groups existed).")] bool? ungrouped,
        string? cursor,
        [Description("Alerts per page: 1–500, default 50.")] int? limit,
        PerfDbContext db,
        ClaimsPrincipal user,
        HttpRequest request,
        CancellationToken ct
    )
    {
        var alerts = db.Alerts.AsNoTracking();
        var projects = db.VisibleProjects(user);
        if (project is not null)
            projects = projects.Where(p => p.Slug == project);
        alerts = alerts.Where(a => projects.Any(p => p.Id == a.ProjectId));
        if (string.Equals(state, "open", StringComparison.OrdinalIgnoreCase))
            alerts = alerts.WhereOpen();
        else if (!string.IsNullOrEmpty(state))
        {
            if (!Enum.TryParse<AlertState>(state, ignoreCase: true, out var s) || int.TryParse(state, out _))
                return Problems.BadRequest("state is one of active, acknowledged, invalid, fixed, open");
            alerts = alerts.Where(a => a.State == s);
        }
        if (profile is not null)
            alerts = alerts.Where(a => a.Profile!.Name == profile);
        if (ungrouped == true)
            alerts = alerts.Where(a => a.AlertGroupId == null);
        if (cursor is not null)
        {
            if (!Cursor.TryDecodeId(cursor, out var before))
                return Problems.BadRequest("cursor is not one this API gave out");
            alerts = alerts.Where(a => a.Id < before);
        }
        var take = Math.Clamp(limit ?? 50, 1, 500);
        var rows = await Project(db, alerts.OrderByDescending(a => a.Id).Take(take + 1)).ToListAsync(ct);
        var items = rows.Take(take).ToList();
        return TypedResults.Ok(
            new Page<AlertDto>(items, rows.Count > take ? Cursor.NextLink(request, Cursor.Encode(items[^1].Id)) : null)
        );
    }

    public static async Task<Results<Ok<AlertDetailDto>, ProblemHttpResult>> Get(
        long alertId,
        PerfDbContext db,
        CancellationToken ct
    )
    {
        var detail = await DetailAsync(db, db.Alerts.Where(a => a.Id == alertId), ct);
        return detail is null
            ? Problems.NotFound($"alert {alertId} does not exist or is not visible to this token")
            : TypedResults.Ok(detail);
    }

    public static Task<Results<Ok<AlertDetailDto>, ProblemHttpResult, ValidationProblem>> SetState(
        long alertId,
        AlertStateRequest request,
        AlertTriage triage,
        ClaimsPrincipal user,
        CancellationToken ct
    ) => triage.ChangeAsync(alertId, request, user, ct);

    internal static async Task<AlertDetailDto?> DetailAsync(
        PerfDbContext db,
        IQueryable<Alert> alert,
        CancellationToken ct
    )
    {
        var dto = await Project(db, alert.AsNoTracking()).FirstOrDefaultAsync(ct);
        if (dto is null)
            return null;
        var events = await db
            .AlertEvents.AsNoTracking()
            .Where(e => e.AlertId == dto.Id)
            .OrderBy(e => e.At)
            .ThenBy(e => e.Id)
            .Select(e => new
            {
                e.Id,
                e.FromState,
                e.ToState,
                e.Actor,
                e.Reason,
                e.At,
            })
            .ToListAsync(ct);
        return new AlertDetailDto(
            dto,
            events
                .Select(e => new AlertEventDto(
                    e.Id,
                    e.FromState?.ToString(),
                    e.ToState.ToString(),
                    e.Actor,
                    e.Reason,
                    e.At
                ))
                .ToList()
        );
    }

    internal static IQueryable<AlertDto> Project(PerfDbContext db, IQueryable<Alert> alerts) =>
        alerts.Select(a => new AlertDto(
            a.Id,
            a.Project!.Slug,
            a.Kind.ToString(),
            a.State.ToString(),
            a.BenchmarkId,
            a.Benchmark!.Key,
            a.Measure!.Name,
            a.Profile!.Name,
            a.RunId,
            a.FromCommit,
            a.ToCommit,
            a.Summary,
            a.IssueUrl,
            a.CreatedAt,
            a.UpdatedAt,
            a.AlertGroupId,
            a.Change,
            a.Details.ChangePoint == null ? null : a.Details.ChangePoint.DetectedAt - a.Details.ChangePoint.Index
        ));
}
