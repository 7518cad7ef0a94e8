using System.ComponentModel;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Access;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.AgentJobs;

/// <summary>Read side of jobs and agents, for the dashboard, the demo and tests.</summary>
public static class JobsQueries
{
    public static async Task<Ok<List<JobDto>>> List(
        PerfDbContext db,
        HttpContext http,
        [Description("Only this project's jobs (its slug).")] string? project,
        [Description("Only jobs in this state: queued, running, succeeded, failed, cancelled or awaitingapproval.")]
            string? state,
        [Description("Jobs to return, newest first: 1–1000, default 100.")] int? limit,
        CancellationToken ct
    )
    {
        var projects = db.VisibleProjects(http.User).Where(p => project == null || p.Slug == project);
        var jobs = db.Jobs.AsNoTracking().Where(j => projects.Any(p => p.Id == j.ProjectId));
        if (Enum.TryParse<JobState>(state, ignoreCase: true, out var s))
            jobs = jobs.Where(j => j.State == s);
        return TypedResults.Ok(
            await Project(db, jobs.OrderByDescending(j => j.Id).Take(Math.Clamp(limit ?? 100, 1, 1000)), withLog: false)
                .ToListAsync(ct)
        );
    }

    public static async Task<Results<Ok<JobDto>, NotFound>> Get(long jobId, PerfDbContext db, CancellationToken ct)
    {
        var job = await Project(db, db.Jobs.AsNoTracking().Where(j => j.Id == jobId), withLog: true)
            .FirstOrDefaultAsync(ct);
        return job is null ? TypedResults.NotFound() : TypedResults.Ok(job);
    }

    /// <summary>
    /// Agents are shared machines unless registered with a token bound to a project: those are that project's own and
    /// listed only to callers who can see it. A running job is named only when its project is visible too; the machine
    /// description only to a caller with a token.
    /// </summary>
    public static async Task<Ok<List<AgentDto>>> Agents(PerfDbContext db, HttpContext http, CancellationToken ct)
    {
        var visible = db.VisibleProjects(http.User);
        // A machine description (CPU, kernel, OS, toolchains) helps an attacker pick exploits: tokens only.
        var machines = http.User.Identity?.IsAuthenticated == true;
        var agents = db
            .Agents.AsNoTracking()
            .Where(a => a.Token == null || a.Token.ProjectId == null || visible.Any(p => p.Id == a.Token.ProjectId));
        return TypedResults.Ok(
            await agents
                .OrderBy(a => a.Name)
                .Select(a => new AgentDto(
                    a.Id,
                    a.Name,
                    a.Profile!.Name,
                    a.ProfileMismatch,
                    machines ? a.Machine : null,
                    a.RegisteredAt,
                    a.LastSeenAt,
                    db.Jobs.Where(j =>
                            j.AgentId == a.Id && j.State == JobState.Running && visible.Any(p => p.Id == j.ProjectId)
                        )
                        .Select(j => (long?)j.Id)
                        .FirstOrDefault()
                ))
                .ToListAsync(ct)
        );
    }

    public static IQueryable<JobDto> Project(PerfDbContext db, IQueryable<Job> jobs, bool withLog) =>
        jobs.Select(j => new JobDto(
            j.Id,
            j.Project!.Slug,
            j.Kind.ToString(),
            j.Commit,
            j.BaseCommit,
            j.Branch,
            j.PullRequest,
            j.Suites,
            j.Profile!.Name,
            j.Priority,
            j.State.ToString(),
            j.Attempts,
            j.MaxAttempts,
            j.Rounds,
            j.Quick,
            j.Agent!.Name,
            j.LeaseExpiresAt,
            j.Progress,
            j.Reason,
            j.CreatedAt,
            j.StartedAt,
            j.FinishedAt,
            withLog ? j.Log : null,
            j.Untrusted
        ));
}

public sealed record AgentDto(
    long Id,
    string Name,
    string Profile,
    bool ProfileMismatch,
    string? Machine,
    DateTimeOffset RegisteredAt,
    DateTimeOffset LastSeenAt,
    long? RunningJobId
);
