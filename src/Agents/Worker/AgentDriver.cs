using PerfService.Agents.Client;
using PerfService.Agents.Jobs;
using PerfService.Agents.Machine;
using PerfService.Agents.Spool;
using PerfService.Core.Contracts;
using static PerfService.Agents.Worker.AgentStep;

namespace PerfService.Agents.Worker;

/// <summary>
/// The I/O half of the agent: performs each step the <see cref="AgentStateMachine"/> asks for and reports back what
/// happened. No decisions here beyond turning answers into events.
/// </summary>
public sealed class AgentDriver(
    AgentOptions options,
    AgentIdentity identity,
    PerfServiceClient client,
    RunDelivery delivery,
    JobSupervisor supervisor,
    AgentConsole console,
    TimeProvider clock,
    Func<double>? random = null
)
{
    private readonly AgentStateMachine _machine = new(
        options.Once,
        Backoff.Default,
        random ?? Random.Shared.NextDouble
    );
    private AgentIdentity _identity = identity;
    private JobLog? _log;
    private IReadOnlyList<string>? _completeLog;
    private bool _idleShown;

    public async Task<int> RunAsync(CancellationToken stopping)
    {
        using var _ = stopping.Register(_machine.RequestStop);
        var step = _machine.Next(new AgentEvent.Started());
        while (step is not Stop)
        {
            var happened = await PerformAsync(step, stopping);
            step = _machine.Next(happened);
        }
        var stop = (Stop)step;
        console.Line(stop.ExitCode == 0 ? $"agent stopped: {stop.Reason}" : $"agent stopped: error: {stop.Reason}");
        return stop.ExitCode;
    }

    private async Task<AgentEvent> PerformAsync(AgentStep step, CancellationToken stopping)
    {
        try
        {
            return step switch
            {
                Register => await RegisterAsync(stopping),
                DrainSpool => await DrainAsync(stopping),
                Claim c => await ClaimAsync(c.AgentId, stopping),
                RunJob r => await RunJobAsync(r, stopping),
                AgentStep.Complete c => await CompleteAsync(c, stopping),
                Wait w => await WaitAsync(w, stopping),
                _ => throw new InvalidOperationException($"unknown step {step}"),
            };
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
            return step is Wait
                ? new AgentEvent.WaitOver()
                : new AgentEvent.CallFailed(ApiStatus.Transient, "stopping");
        }
    }

    private async Task<AgentEvent> RegisterAsync(CancellationToken ct)
    {
        var result = await client.RegisterAsync(
            new RegisterAgentRequest(_identity.Name, _identity.Profile, _identity.Machine),
            ct
        );
        if (result is not { Status: ApiStatus.Ok, Value: { } registered })
            return Failed(result);
        if (registered.ProfileMismatch && !_identity.ProfileMismatch)
        {
            // The service knows better (e.g. its own profile table differs): trust it, and flag every run.
            _identity = _identity with
            {
                MismatchReason = registered.MismatchReason ?? "the service reports a profile mismatch",
            };
            console.Line($"warning: {_identity.MismatchReason}");
        }
        console.Line(
            $"registered with {options.Server} as agent {registered.AgentId} ({_identity.Name}, profile {registered.Profile})"
        );
        return new AgentEvent.Registered(registered.AgentId);
    }

    private async Task<AgentEvent> DrainAsync(CancellationToken ct)
    {
        try
        {
            return new AgentEvent.SpoolDrained(await delivery.DrainAsync(console.Line, ct));
        }
        catch (IOException e)
        {
            console.Line($"error: cannot read the spool: {e.Message}");
            return new AgentEvent.SpoolDrained(Blocked: true, Unreadable: true);
        }
    }

    private async Task<AgentEvent> ClaimAsync(long agentId, CancellationToken ct)
    {
        if (!_idleShown)
            console.Line("waiting for a job…");
        _idleShown = true;
        var result = await client.ClaimAsync(agentId, options.WaitSeconds, ct);
        if (result.Status == ApiStatus.NoContent)
            return new AgentEvent.Claimed(null);
        if (result is not { Status: ApiStatus.Ok, Value: { } job })
            return Failed(result);
        _idleShown = false;
        var pr = job.PullRequest is { } n ? $" PR #{n}" : "";
        var vs = job.BaseCommit is { } b ? $" vs base {Core.Contracts.CommitId.Short(b)}, {job.Rounds} round(s)" : "";
        console.Line(
            $"job {job.JobId} (attempt {job.Attempt}): {job.Project}{pr} {Core.Contracts.CommitId.Short(job.Commit)}{vs}"
                + $"{(job.Quick ? ", quick" : "")}; suites: {(job.Suites.Count == 0 ? "all" : string.Join(", ", job.Suites))}"
        );
        return new AgentEvent.Claimed(job);
    }

    private async Task<AgentEvent> RunJobAsync(RunJob run, CancellationToken stopping)
    {
        _log = new JobLog(console);
        var started = clock.GetTimestamp();
        var outcome = await supervisor.RunAsync(run.AgentId, run.Job, _identity, _log, stopping);
        var took = clock.GetElapsedTime(started);
        console.Line(
            outcome.Kind switch
            {
                JobOutcomeKind.Succeeded => $"job {run.Job.JobId} succeeded in {took:hh\\:mm\\:ss}",
                JobOutcomeKind.LeaseLost => $"job {run.Job.JobId} abandoned: its lease went to another agent",
                _ =>
                    $"job {run.Job.JobId} {outcome.Kind.ToString().ToLowerInvariant()} after {took:hh\\:mm\\:ss}: {FirstLine(outcome.Error)}",
            }
        );
        return new AgentEvent.JobFinished(outcome);
    }

    private async Task<AgentEvent> CompleteAsync(AgentStep.Complete c, CancellationToken stopping)
    {
        // Kept across retries so that a failed complete does not lose the last log lines.
        _completeLog ??= _log?.TakeNew() ?? [];
        var request = new CompleteJobRequest(
            c.AgentId,
            c.Outcome.Kind == JobOutcomeKind.Succeeded,
            c.Outcome.Error,
            _completeLog
        );
        // On shutdown there is still a moment to tell the service, so it can hand the job out again at once.
        using var bounded = stopping.IsCancellationRequested
            ? new CancellationTokenSource(TimeSpan.FromSeconds(10))
            : null;
        var result = await client.CompleteAsync(c.Job.JobId, request, bounded?.Token ?? stopping);
        if (!result.IsSuccess && result.Status == ApiStatus.Transient)
            return Failed(result);
        _completeLog = null;
        if (!result.IsSuccess)
            console.Line($"warning: the service did not take the result of job {c.Job.JobId}: {result}");
        return result.IsSuccess ? new AgentEvent.Completed() : Failed(result);
    }

    private async Task<AgentEvent> WaitAsync(Wait wait, CancellationToken ct)
    {
        console.Line($"{wait.Reason}; next try in {wait.Delay.TotalSeconds:0.0} s");
        await Task.Delay(wait.Delay, clock, ct);
        return new AgentEvent.WaitOver();
    }

    private static AgentEvent.CallFailed Failed<T>(ApiResult<T> result) =>
        new(result.Status, result.Error ?? $"HTTP {result.HttpStatus}");

    private static string FirstLine(string? text) => text?.Split('\n')[0] ?? "";
}
