using PerfService.Agents.Client;
using PerfService.Core.Contracts;
using static PerfService.Agents.Worker.AgentStep;

namespace PerfService.Agents.Worker;

/// <summary>
/// Every decision of the agent, without I/O (sans-IO): the driver performs the returned step, feeds back what happened,
/// and gets the next step. Register → (drain spool) → claim → run → (drain spool) → complete → claim…
/// Transient failures back off with jitter and retry the same step; the spool is drained before a claim or a
/// complete whenever it may hold something, so results reach the service before the job is reported done.
/// </summary>
/// <remarks>A drain that is blocked just before a complete is retried before the complete is sent: the service can
/// come back between the two calls, and a job reported done while its results still wait in the spool would let a
/// <c>--once</c> agent exit with them undelivered.</remarks>
public sealed class AgentStateMachine(bool once, Backoff backoff, Func<double> random)
{
    private long? _agentId;
    private AgentStep _current = new Register();

    // The step to do after a drain or a wait.
    private AgentStep? _resume;
    private int _failures;
    private bool _spoolDirty = true; // something may be left from before a restart
    private volatile bool _stopping;
    private JobOutcome? _lastOutcome;
    private int _heldCompletes;

    /// <summary>How many blocked drains hold up a complete before it is sent anyway (about 45 s of backoff), so that one
    /// entry the service keeps failing on cannot stop the agent from reporting its jobs.</summary>
    public const int MaxHeldCompletes = 6;

    public AgentStep Current => _current;
    public int ConsecutiveFailures => _failures;

    /// <summary>Ctrl+C / SIGTERM: finish the step in flight, report a running job, then stop.</summary>
    public void RequestStop() => _stopping = true;

    public AgentStep Next(AgentEvent e) => _current = Decide(e);

    private AgentStep Decide(AgentEvent e) =>
        (e, _current) switch
        {
            (AgentEvent.Started, _) => _stopping ? Stopped() : new Register(),
            (AgentEvent.Registered r, _) => AfterRegistered(r.AgentId),
            (AgentEvent.SpoolDrained d, DrainSpool) => AfterDrain(d.Blocked, d.Unreadable),
            (AgentEvent.Claimed { Job: null }, Claim) => Ok(_stopping ? Stopped() : DrainThen(ClaimStep())),
            (AgentEvent.Claimed { Job: { } job }, Claim c) => Ok(new RunJob(c.AgentId, job)),
            (AgentEvent.JobFinished f, RunJob run) => AfterJob(run, f.Outcome),
            (AgentEvent.Completed, Complete) => Ok(AfterReported()),
            (AgentEvent.WaitOver, Wait) => _stopping ? Stopped() : ResumeAfterWait(),
            (AgentEvent.CallFailed f, _) => AfterFailure(f),
            _ => throw new InvalidOperationException($"event {e} does not fit step {_current}"),
        };

    private AgentStep AfterRegistered(long agentId)
    {
        _agentId = agentId;
        _failures = 0;
        return _stopping ? Stopped() : DrainThen(ClaimStep());
    }

    private AgentStep AfterDrain(bool blocked, bool unreadable = false)
    {
        _spoolDirty = blocked;
        var next = _resume ?? ClaimStep();
        _resume = null;
        // A spool that cannot be read will not get better by waiting: the complete goes at once.
        if (blocked && !unreadable && next is AgentStep.Complete && !_stopping && _heldCompletes < MaxHeldCompletes)
        {
            _heldCompletes++;
            return BackOff(
                next,
                $"the spool still holds results, so the complete waits ({_heldCompletes} of {MaxHeldCompletes})"
            );
        }
        _heldCompletes = 0;
        // A blocked spool does not hold up a claim: the claim will tell if the service is down.
        return _stopping && next is not AgentStep.Complete ? Stopped() : next;
    }

    private AgentStep AfterJob(RunJob run, JobOutcome outcome)
    {
        _lastOutcome = outcome;
        _spoolDirty = true;
        if (outcome.Kind == JobOutcomeKind.LeaseLost)
            return AfterReported();
        var complete = new Complete(run.AgentId, run.Job, outcome);
        return _stopping ? complete : DrainThen(complete);
    }

    private AgentStep AfterReported()
    {
        if (_stopping)
            return Stopped();
        if (once && _lastOutcome is { } outcome)
            return new Stop(
                outcome.Kind == JobOutcomeKind.Succeeded ? 0 : 1,
                $"--once: job {outcome.Kind.ToString().ToLowerInvariant()}"
                    + (
                        _spoolDirty
                            ? "; results left in the spool are posted when an agent next starts in this workdir"
                            : ""
                    )
            );
        return _spoolDirty ? DrainThen(ClaimStep()) : ClaimStep();
    }

    private AgentStep AfterFailure(AgentEvent.CallFailed f)
    {
        if (f.Status == ApiStatus.Unauthorized)
            return new Stop(1, $"the service refused the token: {f.Error}");
        if (_stopping)
            return Stopped();
        return (_current, f.Status) switch
        {
            // The service forgot this agent (e.g. its database was reset): introduce ourselves again.
            (Claim, ApiStatus.NotFound) => new Register(),
            (Register, ApiStatus.Rejected or ApiStatus.NotFound or ApiStatus.Conflict) => new Stop(
                1,
                $"registration refused: {f.Error}"
            ),
            // Only a transient failure is worth repeating a complete for; otherwise the job is gone or not ours.
            (AgentStep.Complete, not ApiStatus.Transient) => Ok(AfterReported()),
            // Draining happens between other steps; its failures are reported as SpoolDrained(Blocked).
            (DrainSpool, _) => AfterDrain(blocked: true),
            _ => BackOff(_current, $"{_current.GetType().Name.ToLowerInvariant()} failed ({f.Status}: {f.Error})"),
        };
    }

    private Wait BackOff(AgentStep retry, string why)
    {
        _failures++;
        _resume = retry;
        return new Wait(backoff.Delay(_failures, random()), $"{why}; retry #{_failures}");
    }

    private AgentStep ResumeAfterWait()
    {
        var next = _resume ?? ClaimStep();
        _resume = null;
        return next is Register ? next : DrainThen(next);
    }

    private AgentStep DrainThen(AgentStep next)
    {
        if (!_spoolDirty)
            return next;
        _resume = next;
        return new DrainSpool();
    }

    private Claim ClaimStep() => new(_agentId ?? throw new InvalidOperationException("not registered"));

    private AgentStep Ok(AgentStep next)
    {
        _failures = 0;
        return next;
    }

    private Stop Stopped() => new(0, "stopping");
}
