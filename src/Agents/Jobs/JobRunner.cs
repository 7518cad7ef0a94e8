using PerfService.Agents.Isolation;
using PerfService.Agents.Machine;
using PerfService.Agents.Processes;
using PerfService.Agents.Spool;
using PerfService.Agents.Suites;
using PerfService.Agents.Worker;
using PerfService.Core.Contracts;
using PerfService.Core.Disturbances;
using PerfService.Core.Suites;
using static PerfService.Core.Contracts.CommitId;

namespace PerfService.Agents.Jobs;

/// <summary>
/// Runs one job: fetch, check out each side, run the plan's steps one at a time, and spool + post each result set.
/// A failing suite skips its remaining rounds but not the other suites, so a PR that breaks one suite still gets
/// numbers for the rest; the job then fails with every suite's error. Cancellation propagates as
/// <see cref="OperationCanceledException"/> after the harness's process tree is killed.
/// </summary>
public sealed partial class JobRunner(
    AgentOptions options,
    GitWorkspace git,
    SuiteRunners runners,
    RunSpool spool,
    RunDelivery delivery,
    TimeProvider clock,
    ProcessRunner processes,
    SuiteRunners profilers
)
{
    private readonly DisturbanceProbe _probe = new();

    private sealed record Side(RunRole Role, string Commit, string Tree, SuiteManifest? Manifest, string? ManifestError)
    {
        public DateTimeOffset? CommittedAt { get; init; }
        public string? Subject { get; init; }
    }

    public async Task<JobOutcome> RunAsync(
        long agentId,
        JobAssignment job,
        AgentIdentity identity,
        JobLog log,
        CancellationToken ct
    )
    {
        var errors = new List<string>();
        var workspace = job.Untrusted
            ? HarnessWorkspace.Untrusted(options.WorkDir, job.JobId)
            : HarnessWorkspace.Trusted(options.WorkDir, agentCaches: options.Isolation.RunAs is null);
        string? repo = null;
        try
        {
            CommitId.Require(job.Commit);
            if (job.BaseCommit is not null)
                CommitId.Require(job.BaseCommit);
            if (workspace.IsFresh)
                log.Note(
                    $"untrusted job: building in the fresh folder {workspace.FreshRoot} with caches of its own; deleted afterwards"
                );
            workspace.Create();
            string[] commits = job.BaseCommit is { } b ? [job.Commit, b] : [job.Commit];
            repo = await git.FetchAsync(job.RepositoryUrl, job.PullRequest, commits, log.Note, ct);
            var sides = await PrepareAsync(job, repo, workspace, log, ct);
            var head = sides[RunRole.Head];
            if (job.Profiling is { } profiling)
            {
                errors.AddRange(await ProfileAsync(agentId, job, profiling, identity, sides, workspace, log, ct));
                return Outcome(errors);
            }
            var steps = JobPlan.Build(
                job,
                JobPlan.SelectSuites(job, head.Manifest ?? throw new JobFailedException(head.ManifestError!))
            );
            var failedSuites = new HashSet<string>(StringComparer.Ordinal);
            var repeats = new RepeatBudget(options.RepeatDisturbed ? JobPlan.DisturbedRepeats(steps) : 0);
            foreach (var step in steps.Where(s => !failedSuites.Contains(s.Suite)))
            {
                try
                {
                    await RunStepAsync(job, identity, step, sides[step.Role], workspace, repeats, log, ct);
                }
                catch (JobFailedException e)
                {
                    log.Note($"error: {e.Message}");
                    errors.Add(e.Message);
                    failedSuites.Add(step.Suite);
                }
            }
        }
        catch (JobFailedException e)
        {
            log.Note($"error: {e.Message}");
            errors.Add(e.Message);
        }
        finally
        {
            DeleteScratch(job);
            await DeleteFreshAsync(workspace, repo, log);
        }
        return Outcome(errors);
    }

    private static JobOutcome Outcome(List<string> errors) =>
        errors.Count == 0 ? JobOutcome.Succeeded : JobOutcome.Failed(string.Join("\n\n", errors));

    private async Task<Dictionary<RunRole, Side>> PrepareAsync(
        JobAssignment job,
        string repo,
        HarnessWorkspace workspace,
        JobLog log,
        CancellationToken ct
    )
    {
        var sides = new Dictionary<RunRole, Side>
        {
            [RunRole.Head] = await SideAsync(repo, RunRole.Head, job.Commit, workspace, log, ct),
        };
        if (job.BaseCommit is { } baseCommit)
            sides[RunRole.Base] = await SideAsync(repo, RunRole.Base, baseCommit, workspace, log, ct);
        // With --run-as, the harness's user gets the folders it builds in (and nothing else of the agent's).
        // Caches outside the work folder stay the administrator's business; the shared work/ is handed tree by tree.
        var ownFolders = workspace.Writable.Where(w =>
            w.StartsWith(options.WorkDir + "/", StringComparison.Ordinal) && w != Path.Combine(options.WorkDir, "work")
        );
        string[] handed = [.. sides.Values.Select(s => s.Tree), .. ownFolders, Scratch(job)];
        try
        {
            await options.Isolation.HandOverAsync(processes, handed, ct);
        }
        catch (IOException e)
        {
            throw new JobFailedException(e.Message);
        }
        return sides;
    }

    private async Task DeleteFreshAsync(HarnessWorkspace workspace, string? repo, JobLog log)
    {
        if (!workspace.IsFresh)
            return;
        try
        {
            workspace.Delete();
            if (repo is not null)
                await git.PruneAsync(repo, CancellationToken.None);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            log.Note($"warning: could not delete the untrusted job's folder {workspace.FreshRoot}: {e.Message}");
        }
    }

    private async Task<Side> SideAsync(
        string repo,
        RunRole role,
        string commit,
        HarnessWorkspace workspace,
        JobLog log,
        CancellationToken ct
    )
    {
        var tree = await git.CheckoutAsync(repo, role.Name(), commit, log.Note, ct, workspace.FreshRoot);
        var (committedAt, subject) = await git.DescribeAsync(tree, commit, log.Note, ct);
        var file = Path.Combine(tree, "perf.json");
        if (!File.Exists(file))
            return new Side(role, commit, tree, null, $"no perf.json at the root of {Short(commit)}")
            {
                CommittedAt = committedAt,
                Subject = subject,
            };
        try
        {
            return new Side(
                role,
                commit,
                tree,
                SuiteManifest.Parse(await File.ReadAllTextAsync(file, ct), $"perf.json@{Short(commit)}"),
                null
            )
            {
                CommittedAt = committedAt,
                Subject = subject,
            };
        }
        catch (FormatException e)
        {
            return new Side(role, commit, tree, null, e.Message) { CommittedAt = committedAt, Subject = subject };
        }
    }

    private async Task RunStepAsync(
        JobAssignment job,
        AgentIdentity identity,
        JobStep step,
        Side side,
        HarnessWorkspace workspace,
        RepeatBudget repeats,
        JobLog log,
        CancellationToken ct
    )
    {
        var suite = side.Manifest?.Suites.FirstOrDefault(s => s.Name == step.Suite);
        if (suite is null)
        {
            // A pull request that adds a suite has nothing to compare against on base: run head only.
            log.Note(
                $"warning: {step.Role.Name()} {Short(step.Commit)} has no suite {step.Suite} ({side.ManifestError ?? "not in its perf.json"}); skipped"
            );
            return;
        }
        log.Progress = step.Progress;
        log.Note($"▶ {step.Progress} at {Short(step.Commit)}");
        var load = MachineDetector.ReadLoadAverage();
        using var hostLock = options.HostLock is null
            ? null
            : await HostLock.AcquireAsync(options.HostLock, options.HostSlots, log.Note, ct);
        var run = NewRun(job, suite, step, side, workspace, identity, load, hostLock, log);
        var what = $"suite {step.Suite} ({step.Role.Name()}, round {step.Round})";
        var (output, started, finished, disturbance) = await RunMeasuredAsync(what, suite, run, repeats, log, ct);

        var metadata = new RunMetadata
        {
            Project = job.Project,
            Commit = step.Commit,
            CommittedAt = side.CommittedAt,
            CommitMessage = side.Subject,
            Branch = job.Branch,
            PullRequest = job.PullRequest,
            BaseCommit = job.BaseCommit,
            Profile = job.Profile,
            Agent = identity.Name,
            JobId = job.JobId,
            Suite = step.Suite,
            Role = step.Role.Name(),
            Round = step.Round,
            Format = output.Format,
            ProfileMismatch = identity.ProfileMismatch,
            // The targets as this side's perf.json declares them; the service evaluates them on the run.
            Targets = suite.Targets.Count > 0 ? suite.Targets : null,
            Environment = identity.RunEnvironment(load, MachineDetector.ReadGovernor(), options.Cpus),
            StartedAt = started,
            FinishedAt = finished,
            Disturbance = disturbance,
        };
        var key = step.IdempotencyKey(job.JobId);
        // A run is taken whenever it arrives: one the service cannot take now waits in the spool at once.
        await SpoolAndPostAsync(key, () => spool.Write(key, metadata, output.Files), TimeSpan.Zero, log, ct);
    }

    /// <summary>A harness run of <paramref name="suite"/> on one side: its folder in the checkout, the workspace's
    /// environment with the agent's harness variables on top, the CPU to pin to, isolation and writable
    /// folders.</summary>
    private SuiteRun NewRun(
        JobAssignment job,
        SuiteDeclaration suite,
        JobStep step,
        Side side,
        HarnessWorkspace workspace,
        AgentIdentity identity,
        double? load,
        HostLock.Slot? hostLock,
        JobLog log
    )
    {
        var folder = Path.GetFullPath(Path.Combine(side.Tree, suite.Folder));
        if (!folder.StartsWith(side.Tree, StringComparison.Ordinal) || !Directory.Exists(folder))
            throw new JobFailedException(
                $"suite {suite.Name}: folder {suite.Folder} does not exist in {Short(step.Commit)}"
            );
        if (load > 0.5 * identity.Machine.LogicalCores)
            log.Note(
                $"warning: load average {load:0.00} on {identity.Machine.LogicalCores} CPUs: something else is running; results may be noisy"
            );
        var environment = new Dictionary<string, string?>(workspace.Environment);
        foreach (var (key, value) in options.HarnessEnvironment)
            environment[key] = value;
        return new SuiteRun(
            suite,
            folder,
            JobPlan.Args(suite, job.Quick),
            environment,
            options.Cpus ?? hostLock?.Cpu,
            Scratch(job),
            log.Output
        )
        {
            Isolation = options.Isolation,
            Writable = [.. workspace.Writable, Scratch(job)],
        };
    }

    /// <summary>
    /// Runs the harness while <see cref="DisturbanceProbe"/> watches the machine. A disturbed run is repeated at once,
    /// in the same round slot and on the same side (so base and head stay balanced in the ABBA order), while the job's
    /// repeat budget lasts; the least disturbed attempt is the one posted, marked disturbed if every attempt was.
    /// </summary>
    private async Task<(
        SuiteOutput Output,
        DateTimeOffset Started,
        DateTimeOffset Finished,
        Disturbance? Disturbance
    )> RunMeasuredAsync(
        string what,
        SuiteDeclaration suite,
        SuiteRun run,
        RepeatBudget repeats,
        JobLog log,
        CancellationToken ct
    )
    {
        var cpus = LoadFiles.ParseCpuList(run.Cpus);
        (SuiteOutput Output, DateTimeOffset Started, DateTimeOffset Finished, Disturbance? Disturbance)? best = null;
        var attempt = 0;
        while (true)
        {
            attempt++;
            var meter = new DisturbanceMeter(cpus);
            var started = clock.GetUtcNow();
            SuiteOutput output;
            try
            {
                output = await _probe.MeasureAsync(meter, cpus, () => runners.For(suite.Harness).RunAsync(run, ct));
            }
            catch (Exception e) when (e is ProcessStartException or InvalidOperationException or IOException)
            {
                throw new JobFailedException($"{what}: {e.Message}");
            }
            var finished = clock.GetUtcNow();
            var parsed = ResultCheck.Check(what, output, TimeSpan.FromSeconds(suite.TimeoutSeconds));
            var disturbance = meter.Result();
            log.Note(
                $"{what}: {parsed.Results.Count} results in {(finished - started).TotalSeconds:0.0} s{Said(disturbance)}"
            );
            if (best is null || Less(disturbance, best.Value.Disturbance))
                best = (output, started, finished, disturbance);
            if (disturbance is not { Disturbed: true })
                break;
            if (attempt > 1)
            {
                repeats.GiveUp();
                log.Note(
                    $"warning: {what} was disturbed again when repeated: the disturbance is lasting, so this job repeats no more rounds; posted marked as disturbed"
                );
                break;
            }
            if (!repeats.TryTake())
            {
                log.Note(
                    $"warning: {what} stayed disturbed after {attempt} attempt(s) and the job's repeats are spent; posted marked as disturbed"
                );
                break;
            }
            log.Note($"{what}: repeating the disturbed round ({repeats.Left} repeat(s) left in this job)");
        }
        var posted = best!.Value;
        return posted with { Disturbance = posted.Disturbance is { } d ? d with { Attempts = attempt } : null };
    }

    private static string Said(Disturbance? d) =>
        d is null ? ""
        : DisturbanceRule.Describe(d) is { } why ? $"; disturbed: {why}"
        : $"; other processes used {d.OtherCpuShare:0%} of its cores";

    /// <summary>Undisturbed beats disturbed; between two disturbed attempts, the one others used less CPU in.</summary>
    private static bool Less(Disturbance? a, Disturbance? b) =>
        b is not null
        && (
            a is null
            || (!a.Disturbed && b.Disturbed)
            || (a.Disturbed == b.Disturbed && a.OtherCpuShare + a.StealShare < b.OtherCpuShare + b.StealShare)
        );

    /// <summary>Spools an upload (<paramref name="write"/>), then posts it, retrying a transient failure for
    /// <paramref name="retryFor"/>; what still does not get through stays spooled for the drains between jobs.</summary>
    private async Task SpoolAndPostAsync(string key, Action write, TimeSpan retryFor, JobLog log, CancellationToken ct)
    {
        try
        {
            write();
        }
        catch (IOException e)
        {
            throw new JobFailedException($"{key}: results not kept: {e.Message}");
        }
        var posted = await delivery.DeliverRetryingAsync(key, retryFor, log.Note, ct);
        switch (posted.Status)
        {
            case DeliveryStatus.Posted:
                log.Note($"posted {key} → {posted.Stored}");
                break;
            case DeliveryStatus.Kept:
                log.Note($"warning: could not post {key} ({posted.Error}); kept in the spool, will retry");
                break;
            default:
                throw new JobFailedException($"the service refused {key}: {posted.Error}");
        }
    }

    private string Scratch(JobAssignment job) => Path.Combine(options.ScratchDir, $"job-{job.JobId}");

    private void DeleteScratch(JobAssignment job)
    {
        try
        {
            if (Directory.Exists(Scratch(job)))
                Directory.Delete(Scratch(job), recursive: true);
        }
        catch (IOException)
        {
            // Only scratch files; the next job with this id would overwrite them.
        }
    }
}
