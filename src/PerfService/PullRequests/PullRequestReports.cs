using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Alerts;
using PerfService.Core.Comparison;
using PerfService.Core.Contracts;
using PerfService.Core.Reports;
using PerfService.Core.Targets;
using PerfService.Dashboard;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.PullRequests;

/// <summary>
/// Assembles a pull request's report from the stored verdicts and target outcomes of each profile's latest job,
/// with the acknowledgements people made on the alerts. The comment, the check and the dashboard page all read it.
/// Null when there is no such pull request; <c>HeadCommit</c> is the newest head and <c>PendingProfiles</c> the
/// profiles
/// whose jobs for it are queued or running (the commit status stays pending while there are any).
/// </summary>
public class PullRequestReports(PerfDbContext db, IOptions<DashboardOptions> dashboard)
{
    // Virtual so that the tests of the GitHub transport can publish reports they set, without verdicts behind them.
    public virtual async Task<PullRequestReport?> BuildAsync(long projectId, int pullRequest, CancellationToken ct)
    {
        var project = await db.Projects.AsNoTracking().FirstOrDefaultAsync(p => p.Id == projectId, ct);
        var jobs = await db
            .Jobs.AsNoTracking()
            // A profiling job measures nothing: it never names the head, holds the status pending or supplies verdicts.
            .Where(j =>
                j.ProjectId == projectId
                && j.PullRequest == pullRequest
                && j.State != JobState.Cancelled
                && j.Kind != JobKind.Profile
            )
            .OrderByDescending(j => j.Id)
            .ToListAsync(ct);
        if (project is null || jobs.Count == 0)
            return null;
        // Results an ingest token submitted without a job are kept apart from what the agents measure: an agent's job
        // (waiting for approval, queued, running or judged) is never overridden by a submitted one, so a submitted run
        // can neither name the head, turn the status green nor clear "awaiting approval". They get a section (and a
        // status context) of their own; when no agent measures the pull request, they are the whole report.
        var agents = jobs.Where(j => j.Kind != JobKind.Submitted).ToList();
        var submitted = jobs.Where(j => j.Kind == JobKind.Submitted).ToList();
        if (agents.Count == 0)
            return await BuildAsync(project, pullRequest, submitted, ct) with { FromSubmissions = true };
        var report = await BuildAsync(project, pullRequest, agents, ct);
        return submitted.Count == 0
            ? report
            : report with
            {
                Submitted = await BuildAsync(project, pullRequest, submitted, ct) with { FromSubmissions = true },
            };
    }

    /// <summary>The report of one set of jobs (the agents', or the submitted ones), newest first.</summary>
    private async Task<PullRequestReport> BuildAsync(
        Project project,
        int pullRequest,
        List<Job> jobs,
        CancellationToken ct
    )
    {
        var projectId = project.Id;
        var profiles = await db.Profiles.AsNoTracking().ToDictionaryAsync(p => p.Id, p => p.Name, ct);
        var head = jobs[0].Commit;
        // Per profile: the newest job at the newest head; a finished re-run supersedes the job it re-ran.
        var latest = jobs.Where(j => j.Commit == head).GroupBy(j => j.ProfileId).Select(g => g.First()).ToList();
        // A succeeded job counts once its comparison has written its verdicts (or found nothing to compare); until then
        // its profile is pending, and an earlier judged attempt of the same head (a re-run's original) still shows.
        var succeeded = jobs.Where(j => j.Commit == head && j.State == JobState.Succeeded).Select(j => j.Id).ToList();
        var withVerdicts = await db
            .Verdicts.AsNoTracking()
            .Where(v => succeeded.Contains(v.JobId))
            .Select(v => v.JobId)
            .Distinct()
            .ToListAsync(ct);
        bool Judged(Job j) => j.State == JobState.Succeeded && (j.JudgedAt is not null || withVerdicts.Contains(j.Id));
        var judged = jobs.Where(j => j.Commit == head && Judged(j))
            .GroupBy(j => j.ProfileId)
            .Select(g => g.First().Id)
            .ToList();

        var verdicts = await (
            from v in db.Verdicts.AsNoTracking()
            join b in db.Benchmarks on v.BenchmarkId equals b.Id
            join m in db.Measures on v.MeasureId equals m.Id
            where judged.Contains(v.JobId)
            select new
            {
                v,
                b.Key,
                Measure = m.Name,
                m.Unit,
            }
        ).ToListAsync(ct);
        var groupKey = AlertGroupKey.PullRequest(pullRequest, head);
        var regressionAlerts = await db
            .Alerts.AsNoTracking()
            .Where(a => a.ProjectId == projectId && a.Kind == AlertKind.Regression && a.GroupKey == groupKey)
            .Select(a => new
            {
                a.BenchmarkId,
                a.MeasureId,
                a.ProfileId,
                a.State,
                a.AlertGroupId,
            })
            .ToListAsync(ct);
        var acknowledged = regressionAlerts
            .Where(a => a.State is AlertState.Acknowledged or AlertState.Invalid)
            .ToList();
        long? GroupOf(long benchmark, long measure, long profile) =>
            regressionAlerts
                .FirstOrDefault(a => a.BenchmarkId == benchmark && a.MeasureId == measure && a.ProfileId == profile)
                ?.AlertGroupId;

        var targets = await (
            from t in db.TargetResults.AsNoTracking()
            join r in db.Runs on t.RunId equals r.Id
            where r.JobId != null && judged.Contains(r.JobId.Value) && r.Role == RunRole.Head
            orderby r.Round descending
            select new
            {
                t.Name,
                t.Outcome,
                t.Detail,
                r.ProfileId,
            }
        ).ToListAsync(ct);

        var disturbances = await PullRequestDisturbance.ReadAsync(db, jobs, judged, profiles, ct);
        var publicUrl = dashboard.Value.PublicUrl?.TrimEnd('/');
        var profiled = await Profiling.ProfilePages.OfPullRequestAsync(db, projectId, pullRequest, head, ct);
        var figures = await PullRequestHistory.ReadAsync(
            db,
            projectId,
            project.DefaultBranch,
            verdicts
                .Where(x => x.v.Outcome == Outcome.Regression)
                .Select(x =>
                    (new PullRequestHistory.SeriesKey(x.v.BenchmarkId, x.v.MeasureId, x.v.ProfileId), x.v.Change ?? 0)
                )
                .ToList(),
            judged,
            ct
        );
        PullRequestHistory.Figures? Figures(long benchmark, long measure, long profile) =>
            figures.GetValueOrDefault(new PullRequestHistory.SeriesKey(benchmark, measure, profile));
        // The explorer on this series with the pull request's commits marked (explorer.js reads base and head).
        string ExplorerPath(long benchmark, string measure, string profile) =>
            $"explorer.html?project={Uri.EscapeDataString(project.Slug)}&b={benchmark}&measure={Uri.EscapeDataString(measure)}"
            + $"&profile={Uri.EscapeDataString(profile)}"
            + (jobs[0].BaseCommit is { } b ? $"&base={Uri.EscapeDataString(b)}" : "")
            + $"&head={Uri.EscapeDataString(head)}";
        return new PullRequestReport
        {
            Project = project.Slug,
            PullRequest = pullRequest,
            HeadCommit = head,
            BaseCommit = jobs[0].BaseCommit,
            DashboardUrl = publicUrl is null
                ? null
                : $"{publicUrl}/pr.html?project={Uri.EscapeDataString(project.Slug)}&pr={pullRequest}",
            PendingProfiles = latest
                .Where(j =>
                    j.State is JobState.Queued or JobState.Running || (j.State == JobState.Succeeded && !Judged(j))
                )
                .Select(j => profiles[j.ProfileId])
                .Order()
                .ToList(),
            AwaitingApprovalLabel = latest.Any(j => j.State == JobState.AwaitingApproval)
                ? project.ApprovalLabel
                : null,
            HistoryBranch = project.DefaultBranch,
            Disturbances = disturbances,
            Rows = verdicts
                .Select(x => new ReportRow
                {
                    ExplorerPath = ExplorerPath(x.v.BenchmarkId, x.Measure, profiles[x.v.ProfileId]),
                    ExplorerUrl = publicUrl is null
                        ? null
                        : $"{publicUrl}/{ExplorerPath(x.v.BenchmarkId, x.Measure, profiles[x.v.ProfileId])}",
                    ProfilePath = profiled.GetValueOrDefault((x.v.ProfileId, x.Key)),
                    ProfileUrl =
                        publicUrl is null || profiled.GetValueOrDefault((x.v.ProfileId, x.Key)) is not { } page
                            ? null
                            : $"{publicUrl}/{page}",
                    AlertGroupId = GroupOf(x.v.BenchmarkId, x.v.MeasureId, x.v.ProfileId),
                    AlertGroupUrl =
                        publicUrl is null || GroupOf(x.v.BenchmarkId, x.v.MeasureId, x.v.ProfileId) is not { } group
                            ? null
                            : $"{publicUrl}/alerts.html?group={group}",
                    History = Figures(x.v.BenchmarkId, x.v.MeasureId, x.v.ProfileId)?.History ?? [],
                    BaseRounds = Figures(x.v.BenchmarkId, x.v.MeasureId, x.v.ProfileId)?.BaseRounds ?? [],
                    HeadRounds = Figures(x.v.BenchmarkId, x.v.MeasureId, x.v.ProfileId)?.HeadRounds ?? [],
                    Benchmark = x.Key,
                    Measure = x.Measure,
                    Unit = x.Unit,
                    Profile = profiles[x.v.ProfileId],
                    Outcome = x.v.Outcome,
                    BaseValue = x.v.BaseMedian,
                    HeadValue = x.v.HeadMedian,
                    Change = x.v.Change,
                    ChangeCiLower = x.v.ChangeCiLower,
                    ChangeCiUpper = x.v.ChangeCiUpper,
                    PValue = x.v.AdjustedPValue ?? x.v.PValue,
                    NoChangeMargin = x.v.NoChangeMargin,
                    Threshold = x.v.Threshold,
                    Reason = x.v.Reason,
                    Acknowledged = acknowledged.Any(a =>
                        a.BenchmarkId == x.v.BenchmarkId && a.MeasureId == x.v.MeasureId && a.ProfileId == x.v.ProfileId
                    ),
                    BaselineFromHistory = HistoryBaseline.IsAnnotated(x.v.Reason),
                })
                .OrderBy(r => r.Profile)
                .ThenBy(r => r.Benchmark)
                .ThenBy(r => r.Measure)
                .ToList(),
            // One outcome per target and profile: the last round's.
            Targets = targets
                .GroupBy(t => (t.Name, t.ProfileId))
                .Select(g => g.First())
                .Select(t => new ReportTarget
                {
                    Name = t.Name,
                    Profile = profiles[t.ProfileId],
                    State = t.Outcome switch
                    {
                        TargetStatus.Pass => TargetStatus.Pass,
                        TargetStatus.Fail => TargetStatus.Fail,
                        TargetStatus.AtRisk => TargetStatus.AtRisk,
                        _ => TargetStatus.NotMeasured,
                    },
                    Detail = t.Detail,
                })
                .OrderBy(t => t.Profile)
                .ThenBy(t => t.Name)
                .ToList(),
        };
    }
}
