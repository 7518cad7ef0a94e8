using System.Globalization;
using System.Text.Json;
using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Alerts;
using PerfService.Analysis;
using PerfService.Core.Comparison;
using PerfService.Core.Contracts;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.PullRequests;

/// <summary>
/// Judges a finished pull-request job: head rounds against the interleaved base rounds, per benchmark × measure, each
/// run one round (or, where there are no base samples, against the base branch's recent runs: see
/// <see cref="PullRequestInputs"/>), thresholds from the project's overrides or each series' noise on the base branch,
/// and the false discovery rate controlled across the whole job. Every attempt at the same head, base and profile (the
/// job and its re-runs) pools its rounds: a re-run adds rounds to the comparison rather than a second chance to pass.
/// Stores the verdicts (replacing this job's earlier ones, so it is reentrant), opens an alert for each regression, and
/// queues a re-run with the rounds the inconclusive verdicts ask for, while the project's round budget lasts.
/// </summary>
// The critical queue: a pull request's verdict should not wait behind a backlog of main-branch analyses.
[AutomaticRetry(Attempts = 5)]
[Queue("critical")]
public sealed class PullRequestComparisonJob(
    PerfDbContext db,
    PullRequestInputs builder,
    AlertService alerts,
    JobScheduler scheduler,
    IBackgroundJobClient background,
    Profiling.ProfilingJobs profiling,
    TimeProvider time,
    ILogger<PullRequestComparisonJob> logger
)
{
    public static void Enqueue(IBackgroundJobClient jobs, long jobId) =>
        jobs.Enqueue<PullRequestComparisonJob>(j => j.RunAsync(jobId, CancellationToken.None));

    public async Task RunAsync(long jobId, CancellationToken ct)
    {
        var job = await db.Jobs.AsNoTracking().FirstOrDefaultAsync(j => j.Id == jobId, ct);
        if (job?.PullRequest is null || job.Kind == JobKind.Profile)
            return;
        var project = await db.Projects.AsNoTracking().FirstAsync(p => p.Id == job.ProjectId, ct);
        var profile = await db
            .Profiles.AsNoTracking()
            .Where(p => p.Id == job.ProfileId)
            .Select(p => p.Name)
            .FirstAsync(ct);
        var (attempts, newerPending) = await AttemptsAsync(job, ct);
        var attemptIds = attempts.Select(a => a.Id).ToList();
        // Only runs the ingest API accepted for a job carry its id (see Ingestion/JobHold.cs); the project and profile
        // are checked again so that no row written any other way can feed the verdict.
        var runs = await db
            .Runs.AsNoTracking()
            .Where(r =>
                r.JobId != null
                && attemptIds.Contains(r.JobId.Value)
                && r.ProjectId == job.ProjectId
                && r.ProfileId == job.ProfileId
            )
            .Select(r => new
            {
                r.Id,
                r.Role,
                r.Disturbance,
            })
            .ToListAsync(ct);
        // Disturbed rounds are left out when both sides keep enough undisturbed ones (the report says which, see
        // PullRequestDisturbance); otherwise every round is used.
        var disturbed = PullRequestDisturbance.Choose(runs.Select(r => (r.Id, r.Role, r.Disturbance)));
        runs = runs.Where(r => !disturbed.LeftOut.Contains(r.Id)).ToList();
        var results = await RunResults.LoadAsync(db, runs.Select(r => r.Id).ToList(), ct);
        var roleOf = runs.ToDictionary(r => r.Id, r => r.Role);
        var mainBranch = await db
            .Branches.AsNoTracking()
            .Where(b => b.ProjectId == project.Id && b.Name == project.DefaultBranch)
            .Select(b => (long?)b.Id)
            .FirstOrDefaultAsync(ct);

        var scope = new PullRequestScope(
            project.Id,
            job.ProfileId,
            profile,
            mainBranch,
            project.DefaultBranch,
            job.BaseCommit,
            project.IncludeProfileMismatch
        );
        var inputs = await builder.BuildAsync(
            scope,
            results.Where(r => roleOf[r.RunId] == RunRole.Head).ToList(),
            results.Where(r => roleOf[r.RunId] == RunRole.Base).ToList(),
            ct
        );
        if (inputs.Any(i => i.FromHistory is not null))
            logger.LogInformation(
                "Job {JobId}: {Count} benchmark(s) without interleaved base samples judged against {Branch} history",
                jobId,
                inputs.Count(i => i.FromHistory is not null),
                project.DefaultBranch
            );

        var verdicts = RunComparer.Compare(inputs.Select(i => i.Input).ToList());
        var roundsSoFar = attempts.Sum(a => a.Rounds);
        var budget = project.EffectiveRoundBudget;
        var rerunRounds = RerunRounds(verdicts, roundsSoFar, budget);
        var canRerun = job.Kind is not JobKind.Submitted && !newerPending;
        if (verdicts.Any(v => v.WantsRerun) && rerunRounds == 0 && job.Kind is not JobKind.Submitted)
            verdicts = verdicts
                .Select(v =>
                    v.WantsRerun
                        ? v with
                        {
                            Reason =
                                $"{v.Reason}; the project's budget of {budget} rounds a side is spent ({roundsSoFar} run)",
                        }
                        : v
                )
                .ToList();
        // One transaction: a reader never sees the old verdicts deleted and the new ones not yet written, nor a
        // regression verdict whose alert is still missing.
        await using (var tx = await db.Database.BeginTransactionAsync(ct))
        {
            await SaveAsync(job, inputs, verdicts, ct);
            await OpenRegressionAlertsAsync(job, profile, inputs, verdicts, ct);
            // With the verdicts: the report counts this profile as done only once they are all there.
            await db
                .Jobs.Where(j => j.Id == job.Id)
                .ExecuteUpdateAsync(s => s.SetProperty(j => j.JudgedAt, time.GetUtcNow()), ct);
            await tx.CommitAsync(ct);
        }
        // Why it got slower: the agent that measured the regressions profiles them on base and head.
        await profiling.ForRegressionsAsync(
            job,
            verdicts
                .Select((v, i) => (v, i))
                .Where(x => x.v.Outcome == Outcome.Regression)
                .Select(x => inputs[x.i].BenchmarkId)
                .Distinct()
                .ToList(),
            ct
        );
        // Never for submitted results, which no agent of ours produced and none may be there to re-run; only from the
        // newest attempt (an older one finishing late must not queue a second re-run); only within the budget.
        if (verdicts.Any(v => v.WantsRerun) && canRerun && rerunRounds > 0)
        {
            logger.LogInformation(
                "Job {JobId}: {Count} inconclusive verdicts after {Rounds} rounds; queueing a re-run adding {More}",
                jobId,
                verdicts.Count(v => v.WantsRerun),
                roundsSoFar,
                rerunRounds
            );
            await scheduler.EnqueueAsync(
                new JobRequest(
                    project.Slug,
                    job.Commit,
                    job.BaseCommit,
                    job.Branch,
                    job.PullRequest,
                    job.Suites,
                    [profile],
                    rerunRounds,
                    job.Quick,
                    JobKind.Rerun
                ),
                ct
            );
        }
        // New verdicts: the comment and the status follow, where the project is connected to GitHub.
        if (project.GitHubRepository is not null)
            PullRequestPublishJob.Enqueue(background, project.Id, job.PullRequest.Value);
    }

    /// <summary>
    /// The attempts whose rounds this judgement pools, oldest first, ending with this job: the pull-request job and the
    /// re-runs of the same head against the same base on the same profile that finished (or this one). Submitted
    /// results stand alone.
    /// </summary>
    private async Task<(List<Job> Attempts, bool NewerPending)> AttemptsAsync(Job job, CancellationToken ct)
    {
        if (job.Kind is not (JobKind.PullRequest or JobKind.Rerun))
            return ([job], false);
        var attempts = await db
            .Jobs.AsNoTracking()
            .Where(j =>
                j.ProjectId == job.ProjectId
                && j.PullRequest == job.PullRequest
                && j.Commit == job.Commit
                && j.BaseCommit == job.BaseCommit
                && j.ProfileId == job.ProfileId
                && (j.Kind == JobKind.PullRequest || j.Kind == JobKind.Rerun)
                && (j.Id == job.Id || j.State == JobState.Succeeded)
            )
            .OrderBy(j => j.Id)
            .ToListAsync(ct);
        // A newer attempt already running or queued is the one to decide on re-runs; this one only pools what exists.
        var newer = await db
            .Jobs.AsNoTracking()
            .AnyAsync(
                j =>
                    j.ProjectId == job.ProjectId
                    && j.PullRequest == job.PullRequest
                    && j.Commit == job.Commit
                    && j.ProfileId == job.ProfileId
                    && j.Kind == JobKind.Rerun
                    && j.Id > job.Id
                    && (j.State == JobState.Queued || j.State == JobState.Running),
                ct
            );
        return (attempts, newer);
    }

    /// <summary>
    /// Rounds a side the re-run should add: enough for the inconclusive verdict that needs the most (its estimate of
    /// the
    /// rounds that would decide it), at least as many as were run so far when it gave none, never beyond the budget.
    /// </summary>
    internal static int RerunRounds(IReadOnlyList<Core.Comparison.Verdict> verdicts, int roundsSoFar, int budget)
    {
        var left = budget - roundsSoFar;
        if (left <= 0)
            return 0;
        var wanted = verdicts
            .Where(v => v.WantsRerun)
            .Select(v => v.RoundsToDecide is { } r ? r - roundsSoFar : roundsSoFar)
            .DefaultIfEmpty(0)
            .Max();
        return wanted <= 0 ? 0 : Math.Min(left, Math.Max(1, wanted));
    }

    private async Task SaveAsync(
        Job job,
        List<PullRequestInput> inputs,
        IReadOnlyList<Core.Comparison.Verdict> verdicts,
        CancellationToken ct
    )
    {
        await db.Verdicts.Where(v => v.JobId == job.Id).ExecuteDeleteAsync(ct);
        var now = time.GetUtcNow();
        for (var i = 0; i < verdicts.Count; i++)
        {
            var v = verdicts[i];
            db.Verdicts.Add(
                new Data.Entities.Verdict
                {
                    JobId = job.Id,
                    ProjectId = job.ProjectId,
                    PullRequest = job.PullRequest,
                    ProfileId = job.ProfileId,
                    BenchmarkId = inputs[i].BenchmarkId,
                    MeasureId = inputs[i].MeasureId,
                    Outcome = v.Outcome,
                    BaseMedian = Finite(v.BaseMedian),
                    HeadMedian = Finite(v.HeadMedian),
                    Change = Finite(v.Change),
                    ChangeCiLower = Finite(v.ChangeLower),
                    ChangeCiUpper = Finite(v.ChangeUpper),
                    PValue = Finite(v.PValue),
                    AdjustedPValue = Finite(v.AdjustedP),
                    Threshold = v.Threshold,
                    NoChangeMargin = v.NoChangeMargin,
                    BaseSamples = v.BaseCount,
                    HeadSamples = v.HeadCount,
                    Reason = inputs[i].Reason(v),
                    WantsRerun = v.WantsRerun,
                    CreatedAt = now,
                }
            );
        }
        await db.SaveChangesAsync(ct);
    }

    private async Task OpenRegressionAlertsAsync(
        Job job,
        string profile,
        List<PullRequestInput> inputs,
        IReadOnlyList<Core.Comparison.Verdict> verdicts,
        CancellationToken ct
    )
    {
        for (var i = 0; i < verdicts.Count; i++)
        {
            var v = verdicts[i];
            if (v.Outcome != Outcome.Regression)
                continue;
            await alerts.OpenAsync(
                new Alert
                {
                    ProjectId = job.ProjectId,
                    Kind = AlertKind.Regression,
                    BenchmarkId = inputs[i].BenchmarkId,
                    MeasureId = inputs[i].MeasureId,
                    ProfileId = job.ProfileId,
                    GroupKey = AlertGroupKey.PullRequest(job.PullRequest!.Value, job.Commit),
                    FromCommit = job.BaseCommit,
                    ToCommit = job.Commit,
                    Change = Finite(v.Change),
                    Summary = string.Create(
                        CultureInfo.InvariantCulture,
                        $"{v.Change:+0.0%;-0.0%} {v.Measure} of {v.Key} on {profile} in pull request #{job.PullRequest}"
                    ),
                    Details = new AlertDetails
                    {
                        Regression = new RegressionFacts
                        {
                            JobId = job.Id,
                            BaseMedian = Finite(v.BaseMedian),
                            HeadMedian = Finite(v.HeadMedian),
                            Change = Finite(v.Change),
                            P = Finite(v.PValue),
                        },
                    },
                },
                "regression verdict",
                ct
            );
        }
    }

    private static double? Finite(double x) => double.IsFinite(x) ? x : null;
}
