using System.Text;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Access;
using PerfService.Core.Contracts;
using PerfService.Core.Profiles;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Hosting.Http;
using PerfService.Ingestion;

namespace PerfService.Profiling;

/// <summary>The read routes. Each names a job, pull request, alert or profile that <see
/// cref="ProjectAccessMiddleware"/>
/// traced to its project and checked before the handler runs.</summary>
internal static class ProfileQueries
{
    public static async Task<Ok<List<CpuProfileDto>>> OfJob(long jobId, PerfDbContext db, CancellationToken ct) =>
        TypedResults.Ok(await ListAsync(db.CpuProfiles.Where(p => p.JobId == jobId), ct));

    public static async Task<Ok<List<ProfilingJobDto>>> OfPullRequest(
        int pr,
        HttpContext http,
        PerfDbContext db,
        CancellationToken ct
    ) =>
        TypedResults.Ok(
            await Jobs(
                db,
                db.Jobs.Where(j =>
                    j.ProjectId == http.Project().Id && j.PullRequest == pr && j.Kind == JobKind.Profile
                ),
                ct
            )
        );

    /// <summary>The alert's own profiling job, or the one of its commit and profile that it joined (alerts of one
    /// commit share a job: ProfilingJobs.JoinQueuedAsync). A target's alert has no commit before it: any base
    /// does.</summary>
    public static async Task<Ok<List<ProfilingJobDto>>> OfAlert(long alertId, PerfDbContext db, CancellationToken ct)
    {
        var alert = await db
            .Alerts.AsNoTracking()
            .Where(a => a.Id == alertId)
            .Select(a => new
            {
                a.ProjectId,
                a.ProfileId,
                a.FromCommit,
                a.ToCommit,
            })
            .FirstOrDefaultAsync(ct);
        var jobs = db.Jobs.Where(j =>
            j.Kind == JobKind.Profile
            && (
                j.AlertId == alertId
                || (
                    alert != null
                    && j.AlertId != null
                    && j.PullRequest == null
                    && j.ProjectId == alert.ProjectId
                    && j.ProfileId == alert.ProfileId
                    && j.Commit == alert.ToCommit
                    && (alert.FromCommit == null || j.BaseCommit == alert.FromCommit)
                )
            )
        );
        return TypedResults.Ok(await Jobs(db, jobs, ct));
    }

    /// <summary>The default branch's profiling jobs of the run's commit on its hardware profile: of a target it broke,
    /// of a change point at it.</summary>
    public static async Task<Ok<List<ProfilingJobDto>>> OfRun(long runId, PerfDbContext db, CancellationToken ct)
    {
        var run = db.Runs.Where(r => r.Id == runId);
        var jobs = db.Jobs.Where(j =>
            j.Kind == JobKind.Profile
            && j.AlertId != null
            && j.PullRequest == null
            && run.Any(r => r.ProjectId == j.ProjectId && r.ProfileId == j.ProfileId && r.Commit!.Sha == j.Commit)
        );
        return TypedResults.Ok(await Jobs(db, jobs, ct));
    }

    public static async Task<Results<FileContentHttpResult, NotFound>> Native(
        long cpuProfileId,
        PerfDbContext db,
        CancellationToken ct
    )
    {
        var p = await db
            .CpuProfiles.AsNoTracking()
            .Where(x => x.Id == cpuProfileId)
            .Select(x => new
            {
                x.NativeGzip,
                x.Format,
                x.Benchmark,
                x.Role,
                x.Round,
            })
            .FirstOrDefaultAsync(ct);
        if (p is null)
            return TypedResults.NotFound();
        var (type, extension) = p.Format switch
        {
            ProfileFormat.Speedscope => ("application/json", "speedscope.json"),
            ProfileFormat.Pprof => ("application/octet-stream", "pb.gz"),
            _ => ("text/plain; charset=utf-8", "folded.txt"),
        };
        return TypedResults.File(
            Gzip.Decompress(p.NativeGzip),
            type,
            $"{FileName(p.Benchmark)}.{p.Role.Name()}.{p.Round}.{extension}"
        );
    }

    public static async Task<Results<ContentHttpResult, NotFound>> Folded(
        long cpuProfileId,
        PerfDbContext db,
        CancellationToken ct
    ) =>
        await db
            .CpuProfiles.AsNoTracking()
            .Where(x => x.Id == cpuProfileId)
            .Select(x => x.FoldedGzip)
            .FirstOrDefaultAsync(ct)
            is { } gzip
            ? TypedResults.Text(Encoding.UTF8.GetString(Gzip.Decompress(gzip)), "text/plain; charset=utf-8")
            : TypedResults.NotFound();

    /// <summary>Every round of each side summed, then head against base.</summary>
    public static async Task<Results<JsonHttpResult<DifferentialDto>, ProblemHttpResult>> Differential(
        long jobId,
        string benchmark,
        PerfDbContext db,
        IOptions<ProfileOptions> options,
        IOptions<Microsoft.AspNetCore.Http.Json.JsonOptions> json,
        CancellationToken ct
    )
    {
        var job = await db
            .Jobs.AsNoTracking()
            .Where(j => j.Id == jobId)
            .Select(j => new
            {
                j.Id,
                Project = j.Project!.Slug,
                Profile = j.Profile!.Name,
                j.PullRequest,
                j.AlertId,
                j.Commit,
                j.BaseCommit,
            })
            .FirstOrDefaultAsync(ct);
        var stored = await db
            .CpuProfiles.AsNoTracking()
            .Where(p => p.JobId == jobId && p.Benchmark == benchmark)
            .Select(p => new { p.Role, p.FoldedGzip })
            .ToListAsync(ct);
        if (job is null || stored.Count == 0)
            return Problems.NotFound($"job {jobId} has no profile of '{benchmark}'");
        FoldedStacks Side(RunRole role)
        {
            var merged = new Dictionary<string, long>(StringComparer.Ordinal);
            foreach (var p in stored.Where(p => p.Role == role))
            {
                var one = FoldedStacks.Parse(
                    new StringReader(Encoding.UTF8.GetString(Gzip.Decompress(p.FoldedGzip))),
                    options.Value.Limits
                );
                foreach (var (stack, count) in one.Stacks)
                    merged[stack] = merged.GetValueOrDefault(stack) + count;
            }
            return new FoldedStacks(merged);
        }
        var diff = DifferentialProfile.Build(Side(RunRole.Base), Side(RunRole.Head));
        // The tree nests two levels a frame (a node, its children): a .NET stack through BenchmarkDotNet's async
        // plumbing is deeper than the serializer's default 64 levels allow. Only this response gets the deeper limit.
        var deep = new System.Text.Json.JsonSerializerOptions(json.Value.SerializerOptions)
        {
            MaxDepth = 2 * options.Value.MaxDepth + 16,
        };
        return TypedResults.Json(
            new DifferentialDto(
                job.Id,
                job.Project,
                benchmark,
                job.Profile,
                job.PullRequest,
                job.AlertId,
                job.Commit,
                job.BaseCommit,
                diff.BaseSamples,
                diff.HeadSamples,
                DifferentialProfile.MinSamples,
                diff.TooFewSamples,
                diff.Summary().ToList(),
                diff.Grown,
                diff.Shrunk,
                diff.Root
            ),
            deep
        );
    }

    private static async Task<List<ProfilingJobDto>> Jobs(PerfDbContext db, IQueryable<Job> jobs, CancellationToken ct)
    {
        var rows = await jobs.AsNoTracking()
            .OrderByDescending(j => j.Id)
            .Select(j => new
            {
                j.Id,
                j.State,
                Profile = j.Profile!.Name,
                Agent = j.Agent == null ? null : j.Agent.Name,
                j.Commit,
                j.BaseCommit,
                j.PullRequest,
                j.AlertId,
                j.Profiling,
                j.Reason,
            })
            .Take(200)
            .ToListAsync(ct);
        var ids = rows.Select(r => r.Id).ToList();
        var profiles = (await ListAsync(db.CpuProfiles.Where(p => ids.Contains(p.JobId)), ct)).ToLookup(p => p.JobId);
        return rows.Select(r => new ProfilingJobDto(
                r.Id,
                r.State.ToString(),
                r.Profile,
                r.Agent,
                r.Commit,
                r.BaseCommit,
                r.PullRequest,
                r.AlertId,
                r.Profiling?.Targets ?? [],
                profiles[r.Id].ToList(),
                r.Reason
            ))
            .ToList();
    }

    private static async Task<List<CpuProfileDto>> ListAsync(IQueryable<CpuProfile> profiles, CancellationToken ct)
    {
        var rows = await profiles
            .AsNoTracking()
            .OrderBy(p => p.Benchmark)
            .ThenBy(p => p.Role)
            .ThenBy(p => p.Round)
            .Select(p => new
            {
                p.Id,
                p.JobId,
                p.Suite,
                p.Benchmark,
                p.Role,
                p.Round,
                p.Format,
                Profile = p.Profile!.Name,
                p.Samples,
                p.NativeSize,
                Stored = (long)p.NativeGzip.Length + p.FoldedGzip.Length,
                p.CreatedAt,
            })
            .ToListAsync(ct);
        return rows.Select(p => new CpuProfileDto(
                p.Id,
                p.JobId,
                p.Suite,
                p.Benchmark,
                p.Role.Name(),
                p.Round,
                p.Format.Name(),
                p.Profile,
                p.Samples,
                p.NativeSize,
                p.Stored,
                p.CreatedAt,
                $"/api/v1/profiles/{p.Id}/native",
                $"/api/v1/profiles/{p.Id}/folded"
            ))
            .ToList();
    }

    private static string FileName(string benchmark)
    {
        var safe = new string(
            benchmark.Select(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '-' or '_' ? c : '_').ToArray()
        );
        return safe.Length > 100 ? safe[..100] : safe;
    }
}
