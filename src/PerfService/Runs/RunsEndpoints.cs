using System.ComponentModel;
using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Access;
using PerfService.Core.Contracts;
using PerfService.Dashboard;
using PerfService.Data;
using PerfService.Hosting.Http;

namespace PerfService.Runs;

/// <summary>The read side of a project's runs: the list (JSON or CSV), and each run's verdicts and targets.</summary>
internal static class RunsEndpoints
{
    /// <summary>A project's runs, newest first (by arrival; the cursor is the last row's time and id). <c>pr</c>
    /// narrows to one pull request.</summary>
    public static async Task<Results<Ok<Page<RunRowDto>>, Csv, ProblemHttpResult>> List(
        string slug,
        [Description("Only the runs of this pull request (its number).")] int? pr,
        string? cursor,
        [Description("Runs per page: 1–1000, default 50.")] int? limit,
        [Description("json (default) or csv (also chosen by Accept: text/csv).")] string? format,
        PerfDbContext db,
        ClaimsPrincipal user,
        HttpRequest request,
        CancellationToken ct
    )
    {
        var project = await db.FindProjectAsync(user, slug, ct);
        if (project is null)
            return Problems.ProjectNotFound(slug);
        var take = Math.Clamp(limit ?? 50, 1, 1000);
        var runs = db.Runs.AsNoTracking().Where(r => r.ProjectId == project.Id);
        if (pr is not null)
            runs = runs.Where(r => r.PullRequest == pr);
        if (cursor is not null)
        {
            if (!Cursor.TryDecodeTimeAndId(cursor, out var at, out var id))
                return Problems.BadRequest("cursor is not one this API gave out");
            runs = runs.Where(r => r.CreatedAt < at || (r.CreatedAt == at && r.Id < id));
        }
        var rows = await runs.OrderByDescending(r => r.CreatedAt)
            .ThenByDescending(r => r.Id)
            .Take(take + 1)
            .Select(r => new RunRowDto(
                r.Id,
                r.Commit!.Sha,
                r.Branch!.Name,
                r.PullRequest,
                r.Profile!.Name,
                r.Suite!.Name,
                r.Role.Name(),
                r.Round,
                r.JobId,
                r.CreatedAt,
                r.ResultCount,
                r.FailedCount
            ))
            .ToListAsync(ct);
        var items = rows.Take(take).ToList();
        var next =
            rows.Count > take ? Cursor.NextLink(request, Cursor.Encode(items[^1].CreatedAt, items[^1].Id)) : null;

        if (Csv.Wanted(request, format))
        {
            if (next is not null)
                request.HttpContext.Response.Headers.Link = $"<{next}>; rel=\"next\"";
            return new Csv(
                [
                    "id",
                    "commit",
                    "branch",
                    "pull_request",
                    "profile",
                    "suite",
                    "role",
                    "round",
                    "job_id",
                    "created_at",
                    "results",
                    "errors",
                ],
                items.Select(r =>
                    new object?[]
                    {
                        r.Id,
                        r.Commit,
                        r.Branch,
                        r.PullRequest,
                        r.Profile,
                        r.Suite,
                        r.Role,
                        r.Round,
                        r.JobId,
                        r.CreatedAt,
                        r.Results,
                        r.Errors,
                    }
                )
            );
        }
        return TypedResults.Ok(new Page<RunRowDto>(items, next));
    }

    /// <summary>The verdicts of the job the run belongs to (what the pull-request comment shows); none for a run
    /// without a job.</summary>
    public static async Task<Results<Ok<List<VerdictDto>>, ProblemHttpResult>> Verdicts(
        long runId,
        PerfDbContext db,
        CancellationToken ct
    )
    {
        // The run's project was checked by ProjectAccess before this ran.
        var run = await db
            .Runs.AsNoTracking()
            .Where(r => r.Id == runId)
            .Select(r => new { r.JobId })
            .FirstOrDefaultAsync(ct);
        if (run is null)
            return Problems.NotFound($"run {runId} does not exist or is not visible to this token");
        if (run.JobId is not { } jobId)
            return TypedResults.Ok(new List<VerdictDto>());
        var verdicts = await (
            from v in db.Verdicts.AsNoTracking()
            join b in db.Benchmarks on v.BenchmarkId equals b.Id
            join m in db.Measures on v.MeasureId equals m.Id
            join p in db.Profiles on v.ProfileId equals p.Id
            where v.JobId == jobId
            orderby b.Key, m.Name
            select new
            {
                v,
                b.Key,
                m.Name,
                m.Unit,
                m.Direction,
                Profile = p.Name,
            }
        ).ToListAsync(ct);
        return TypedResults.Ok(
            verdicts
                .Select(x => new VerdictDto(
                    x.v.BenchmarkId,
                    x.Key,
                    x.Name,
                    x.Unit,
                    x.Direction.ToString(),
                    x.Profile,
                    x.v.Outcome.ToString(),
                    x.v.BaseMedian,
                    x.v.HeadMedian,
                    x.v.Change,
                    x.v.ChangeCiLower,
                    x.v.ChangeCiUpper,
                    x.v.PValue,
                    x.v.AdjustedPValue,
                    x.v.Threshold,
                    x.v.NoChangeMargin,
                    x.v.BaseSamples,
                    x.v.HeadSamples,
                    x.v.Reason
                ))
                .ToList()
        );
    }

    public static async Task<Results<Ok<List<TargetResultDto>>, ProblemHttpResult>> Targets(
        long runId,
        PerfDbContext db,
        CancellationToken ct
    )
    {
        var targets = await db
            .TargetResults.AsNoTracking()
            .Where(t => t.RunId == runId)
            .OrderBy(t => t.Name)
            .Select(t => new
            {
                t.Id,
                t.Name,
                t.Outcome,
                t.Actual,
                t.Limit,
                t.Detail,
            })
            .ToListAsync(ct);
        return TypedResults.Ok(
            targets
                .Select(t => new TargetResultDto(t.Id, t.Name, t.Outcome.ToString(), t.Actual, t.Limit, t.Detail))
                .ToList()
        );
    }
}
