using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Data;
using PerfService.Ingestion;

namespace PerfService.Runs;

public static class RunsApi
{
    public static RouteGroupBuilder MapRunsApi(this IEndpointRouteBuilder app)
    {
        var api = app.MapGroup("/api/v1").WithTags("Runs");
        api.MapGet("/runs/{runId:long}", GetRun);
        api.MapGet("/runs/{runId:long}/artifacts/{**path}", GetArtifact);
        return api;
    }

    private static async Task<Results<Ok<RunDetailDto>, NotFound>> GetRun(long runId, PerfDbContext db, CancellationToken ct)
    {
        var id = runId;
        var run = await db.Runs.AsNoTracking().Where(r => r.Id == id).Select(r => new RunDto(
                r.Id, db.Projects.Where(p => p.Id == r.ProjectId).Select(p => p.Slug).First(),
                db.Commits.Where(c => c.Id == r.CommitId).Select(c => c.Sha).First(),
                db.Branches.Where(b => b.Id == r.BranchId).Select(b => b.Name).FirstOrDefault(),
                r.PullRequest, db.Commits.Where(c => c.Id == r.BaseCommitId).Select(c => c.Sha).FirstOrDefault(),
                db.Profiles.Where(p => p.Id == r.ProfileId).Select(p => p.Name).First(),
                db.Agents.Where(a => a.Id == r.AgentId).Select(a => a.Name).FirstOrDefault(),
                r.JobId, db.Suites.Where(s => s.Id == r.SuiteId).Select(s => s.Name).First(), r.Role, r.Round,
                r.Format, r.ProfileMismatch, r.EnvironmentFingerprint, r.CreatedAt))
            .FirstOrDefaultAsync(ct);
        if (run is null) return TypedResults.NotFound();

        var results = await (
                from r in db.Results.AsNoTracking()
                join b in db.Benchmarks on r.BenchmarkId equals b.Id
                join m in db.Measures on r.MeasureId equals m.Id
                where r.RunId == id
                orderby b.Key, m.Name
                select new ResultDto(b.Key, b.Name, b.Parameters, b.Job, m.Name, m.Unit, m.Direction.ToString(),
                    r.Value, r.Median, r.StdDev, r.CiLower, r.CiUpper, r.SampleCount, r.Samples, r.Error))
            .ToListAsync(ct);
        var artifacts = await db.Artifacts.Where(a => a.RunId == id).OrderBy(a => a.Path).Select(a => a.Path).ToListAsync(ct);
        return TypedResults.Ok(new RunDetailDto(run, results, artifacts));
    }

    private static async Task<Results<FileContentHttpResult, NotFound>> GetArtifact(long runId, string path, PerfDbContext db, CancellationToken ct)
    {
        var gz = await db.Artifacts.Where(a => a.RunId == runId && a.Path == path).Select(a => a.ContentGzip).FirstOrDefaultAsync(ct);
        return gz is null ? TypedResults.NotFound() : TypedResults.File(Gzip.Decompress(gz), "application/octet-stream", Path.GetFileName(path));
    }
}
