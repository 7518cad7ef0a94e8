using System.Text.RegularExpressions;
using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Alerts;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.PullRequests;

/// <summary>
/// What GitHub users with write access can ask for from a pull request (check buttons, comment commands): run its
/// current head again, or acknowledge its regressions. Both re-publish the report.
/// </summary>
public sealed class PullRequestActions(
    PerfDbContext db,
    AlertService alertService,
    JobScheduler scheduler,
    IBackgroundJobClient background,
    ILogger<PullRequestActions> logger
)
{
    /// <summary>The pull request's current head, as its webhooks recorded it; null for one PerfService never
    /// saw.</summary>
    public Task<PullRequestHead?> HeadAsync(long projectId, int pullRequest, CancellationToken ct) =>
        db
            .PullRequestHeads.AsNoTracking()
            .FirstOrDefaultAsync(h => h.ProjectId == projectId && h.PullRequest == pullRequest, ct);

    /// <summary>
    /// Queues the current head's jobs again (all profiles, or <paramref name="profiles"/>) through the scheduler, so an
    /// untrusted head that was never approved waits again instead of running. Null when there is nothing to re-run.
    /// </summary>
    /// <remarks>The report turning pending again is what gives the head a new check run (a completed one is
    /// final).</remarks>
    public async Task<IReadOnlyList<Job>?> RerunAsync(
        Project project,
        int pullRequest,
        IReadOnlyList<string>? profiles,
        CancellationToken ct
    )
    {
        if (project.PullRequestPolicy == PullRequestPolicy.None)
            return null;
        var head = await HeadAsync(project.Id, pullRequest, ct);
        if (head is null)
            return null;
        // The base and branch the head was benchmarked against; the webhook's jobs carry them.
        var last = await db
            .Jobs.AsNoTracking()
            .Where(j => j.ProjectId == project.Id && j.PullRequest == pullRequest && j.Commit == head.HeadCommit)
            .OrderByDescending(j => j.Id)
            .Select(j => new { j.BaseCommit, j.Branch })
            .FirstOrDefaultAsync(ct);
        if (last?.BaseCommit is null)
            return null;
        var hold = project.PullRequestPolicy == PullRequestPolicy.Members && !head.Trusted;
        var jobs = await scheduler.EnqueueAsync(
            new JobRequest(
                project.Slug,
                head.HeadCommit,
                last.BaseCommit,
                last.Branch,
                pullRequest,
                Profiles: profiles
            ),
            ct,
            awaitApproval: hold
        );
        PullRequestPublishJob.Enqueue(background, project.Id, pullRequest);
        logger.LogInformation(
            "Re-run of {Project}#{Number} at {Head}: {Jobs} jobs",
            project.Slug,
            pullRequest,
            head.HeadCommit,
            jobs.Count
        );
        return jobs;
    }

    /// <summary>
    /// Acknowledges the current head's active regressions (those whose benchmark matches <paramref name="glob"/>, or
    /// all), recording who and why like the dashboard's triage does; returns how many.
    /// </summary>
    /// <param name="publish">False when the caller publishes the change itself, with more of its own (a note).</param>
    public async Task<int> AcknowledgeAsync(
        long projectId,
        int pullRequest,
        string actor,
        string? glob,
        string? reason,
        CancellationToken ct,
        bool publish = true
    )
    {
        var head = await HeadAsync(projectId, pullRequest, ct);
        if (head is null)
            return 0;
        var groupKey = AlertGroupKey.PullRequest(pullRequest, head.HeadCommit);
        var alerts = await (
            from a in db.Alerts
            join b in db.Benchmarks on a.BenchmarkId equals b.Id
            where
                a.ProjectId == projectId
                && a.Kind == AlertKind.Regression
                && a.GroupKey == groupKey
                && a.State == AlertState.Active
            select new { Alert = a, b.Key }
        ).ToListAsync(ct);
        var match = glob is null ? null : Glob(glob);
        var chosen = alerts.Where(x => match is null || match.IsMatch(x.Key)).Select(x => x.Alert).ToList();
        await alertService.TriageAsync(chosen, AlertState.Acknowledged, actor, reason, issue: null, ct);
        if (chosen.Count > 0 && publish)
            PullRequestPublishJob.Enqueue(background, projectId, pullRequest);
        logger.LogInformation(
            "{Actor} acknowledged {Count} regressions of pull request #{Number} ({Glob})",
            actor,
            chosen.Count,
            pullRequest,
            glob ?? "all"
        );
        return chosen.Count;
    }

    /// <summary>A shell-style pattern over the whole benchmark key: <c>*</c> any text, <c>?</c> one
    /// character.</summary>
    internal static Regex Glob(string glob) =>
        new(
            "^"
                + Regex
                    .Escape(glob)
                    .Replace(@"\*", ".*", StringComparison.Ordinal)
                    .Replace(@"\?", ".", StringComparison.Ordinal)
                + "$",
            RegexOptions.IgnoreCase | RegexOptions.CultureInvariant,
            TimeSpan.FromMilliseconds(200)
        );
}
