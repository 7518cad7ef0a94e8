using PerfService.Agents.Client;
using PerfService.Agents.Worker;
using PerfService.Core.Contracts;
using static PerfService.Agents.Worker.AgentEvent;
using Step = PerfService.Agents.Worker.AgentStep;

namespace PerfService.Agents.Tests.Worker;

public sealed class AgentStateMachineTests
{
    private static readonly JobAssignment _job = new(42, 1, "demo", "/repo", "abc", null, "main", null, [], "ryzen-9950x", 1, 60, false);

    private static AgentStateMachine Machine(bool once = false) =>
        new(once, new Backoff(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(60)), () => 0.5);

    /// <summary>Start → register → drain → claim, as every test's starting point.</summary>
    private static AgentStateMachine Claiming(bool once = false)
    {
        var m = Machine(once);
        Assert.IsType<Step.Register>(m.Next(new Started()));
        Assert.IsType<Step.DrainSpool>(m.Next(new Registered(7)));
        Assert.Equal(new Step.Claim(7), m.Next(new SpoolDrained(Blocked: false)));
        return m;
    }

    [Fact]
    public void Claim_run_drain_complete_then_claim_again()
    {
        var m = Claiming();
        Assert.Equal(new Step.RunJob(7, _job), m.Next(new Claimed(_job)));
        // Results reach the service before the job is reported done.
        Assert.IsType<Step.DrainSpool>(m.Next(new JobFinished(JobOutcome.Succeeded)));
        Assert.Equal(new Step.Complete(7, _job, JobOutcome.Succeeded), m.Next(new SpoolDrained(false)));
        Assert.Equal(new Step.Claim(7), m.Next(new Completed()));
    }

    [Fact]
    public void Empty_long_poll_claims_again_without_counting_a_failure()
    {
        var m = Claiming();
        Assert.Equal(new Step.Claim(7), m.Next(new Claimed(null)));
        Assert.Equal(0, m.ConsecutiveFailures);
    }

    [Fact]
    public void Spool_is_drained_first_at_start_before_any_claim()
    {
        var m = Machine();
        m.Next(new Started());
        Assert.IsType<Step.DrainSpool>(m.Next(new Registered(7)));
    }

    [Fact]
    public void A_blocked_spool_does_not_hold_up_claiming_and_is_retried_after_the_next_poll()
    {
        var m = Machine();
        m.Next(new Started());
        m.Next(new Registered(7));
        Assert.Equal(new Step.Claim(7), m.Next(new SpoolDrained(Blocked: true)));
        Assert.IsType<Step.DrainSpool>(m.Next(new Claimed(null)));
        Assert.Equal(new Step.Claim(7), m.Next(new SpoolDrained(Blocked: false)));
        Assert.Equal(new Step.Claim(7), m.Next(new Claimed(null)));
    }

    [Fact]
    public void Connection_errors_back_off_exponentially_up_to_the_cap_then_reset_on_success()
    {
        var m = Claiming();
        var delays = new List<TimeSpan>();
        for (var i = 0; i < 10; i++)
        {
            var wait = Assert.IsType<Step.Wait>(m.Next(new CallFailed(ApiStatus.Transient, "connection refused")));
            delays.Add(wait.Delay);
            Assert.Equal(new Step.Claim(7), m.Next(new WaitOver()));
        }
        // random = 0.5 → 75 % of the ceiling 1, 2, 4 … 32 s, then of the 60 s cap.
        Assert.Equal([0.75, 1.5, 3, 6, 12, 24, 45, 45, 45, 45], delays.Select(d => d.TotalSeconds));
        Assert.Equal(10, m.ConsecutiveFailures);
        m.Next(new Claimed(null));
        Assert.Equal(0, m.ConsecutiveFailures);
    }

    [Fact]
    public void After_a_wait_a_spool_that_may_hold_results_is_drained_before_the_retry()
    {
        var m = Machine();
        m.Next(new Started());
        m.Next(new Registered(7));
        m.Next(new SpoolDrained(Blocked: true));
        Assert.IsType<Step.Wait>(m.Next(new CallFailed(ApiStatus.Transient, "connection refused")));
        Assert.IsType<Step.DrainSpool>(m.Next(new WaitOver()));
        Assert.Equal(new Step.Claim(7), m.Next(new SpoolDrained(Blocked: false)));
    }

    [Fact]
    public void A_complete_waits_for_a_blocked_spool_so_results_reach_the_service_first()
    {
        // The service comes back between a failed drain and the complete: reporting the job done then would let a
        // --once agent exit with its results still spooled.
        var m = Claiming(once: true);
        m.Next(new Claimed(_job));
        Assert.IsType<Step.DrainSpool>(m.Next(new JobFinished(JobOutcome.Succeeded)));
        var wait = Assert.IsType<Step.Wait>(m.Next(new SpoolDrained(Blocked: true)));
        Assert.Contains("spool", wait.Reason);
        Assert.IsType<Step.DrainSpool>(m.Next(new WaitOver()));
        Assert.Equal(new Step.Complete(7, _job, JobOutcome.Succeeded), m.Next(new SpoolDrained(Blocked: false)));
        var stop = Assert.IsType<Step.Stop>(m.Next(new Completed()));
        Assert.Equal(0, stop.ExitCode);
        Assert.DoesNotContain("spool", stop.Reason);
    }

    [Fact]
    public void A_spool_that_stays_blocked_holds_the_complete_only_so_long_and_the_once_exit_says_what_is_left()
    {
        var m = Claiming(once: true);
        m.Next(new Claimed(_job));
        m.Next(new JobFinished(JobOutcome.Succeeded));
        for (var i = 0; i < AgentStateMachine.MaxHeldCompletes; i++)
        {
            Assert.IsType<Step.Wait>(m.Next(new SpoolDrained(Blocked: true)));
            Assert.IsType<Step.DrainSpool>(m.Next(new WaitOver()));
        }
        Assert.Equal(new Step.Complete(7, _job, JobOutcome.Succeeded), m.Next(new SpoolDrained(Blocked: true)));
        var stop = Assert.IsType<Step.Stop>(m.Next(new Completed()));
        Assert.Contains("left in the spool", stop.Reason);
    }

    [Fact]
    public void A_spool_that_cannot_be_read_does_not_hold_the_complete()
    {
        var m = Claiming();
        m.Next(new Claimed(_job));
        m.Next(new JobFinished(JobOutcome.Failed("results not kept: the spool is not a folder")));
        var complete = Assert.IsType<Step.Complete>(m.Next(new SpoolDrained(Blocked: true, Unreadable: true)));
        Assert.Equal(JobOutcomeKind.Failed, complete.Outcome.Kind);
    }

    [Fact]
    public void Backoff_jitter_stays_within_half_to_full_ceiling()
    {
        var backoff = new Backoff(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(60));
        Assert.Equal(TimeSpan.FromSeconds(4), backoff.Delay(4, 0));
        Assert.Equal(TimeSpan.FromSeconds(8), backoff.Delay(4, 1));
        Assert.Equal(TimeSpan.FromSeconds(60), backoff.Delay(1000, 1));
        Assert.Equal(TimeSpan.FromSeconds(0.5), backoff.Delay(0, 0));
    }

    [Fact]
    public void Cancelled_job_is_completed_as_failed_cancelled()
    {
        var m = Claiming();
        m.Next(new Claimed(_job));
        m.Next(new JobFinished(JobOutcome.Cancelled("superseded by a newer push")));
        var complete = Assert.IsType<Step.Complete>(m.Next(new SpoolDrained(false)));
        Assert.Equal(JobOutcomeKind.Cancelled, complete.Outcome.Kind);
        Assert.Equal("cancelled: superseded by a newer push", complete.Outcome.Error);
        Assert.Equal(new Step.Claim(7), m.Next(new Completed()));
    }

    [Fact]
    public void Lease_lost_abandons_the_job_silently()
    {
        var m = Claiming();
        m.Next(new Claimed(_job));
        // No complete call at all; the spool is drained (the job may have spooled results) and claiming goes on.
        Assert.IsType<Step.DrainSpool>(m.Next(new JobFinished(JobOutcome.LeaseLost)));
        Assert.Equal(new Step.Claim(7), m.Next(new SpoolDrained(false)));
    }

    [Fact]
    public void Complete_is_retried_after_a_transient_failure_and_dropped_on_a_conflict()
    {
        var m = Claiming();
        m.Next(new Claimed(_job));
        m.Next(new JobFinished(JobOutcome.Failed("boom")));
        var complete = m.Next(new SpoolDrained(false));
        Assert.IsType<Step.Wait>(m.Next(new CallFailed(ApiStatus.Transient, "503")));
        Assert.Equal(complete, m.Next(new WaitOver()));
        Assert.Equal(new Step.Claim(7), m.Next(new CallFailed(ApiStatus.Conflict, "lease lost")));
    }

    [Fact]
    public void Once_stops_after_one_job_with_its_result_as_exit_code()
    {
        var m = Claiming(once: true);
        Assert.Equal(new Step.Claim(7), m.Next(new Claimed(null))); // --once waits for a job
        m.Next(new Claimed(_job));
        m.Next(new JobFinished(JobOutcome.Failed("suite broke")));
        m.Next(new SpoolDrained(false));
        Assert.Equal(1, Assert.IsType<Step.Stop>(m.Next(new Completed())).ExitCode);

        var ok = Claiming(once: true);
        ok.Next(new Claimed(_job));
        ok.Next(new JobFinished(JobOutcome.Succeeded));
        ok.Next(new SpoolDrained(false));
        Assert.Equal(0, Assert.IsType<Step.Stop>(ok.Next(new Completed())).ExitCode);
    }

    [Fact]
    public void Refused_token_stops_the_agent_and_an_unknown_agent_registers_again()
    {
        var m = Claiming();
        Assert.IsType<Step.Register>(m.Next(new CallFailed(ApiStatus.NotFound, "no agent 7")));
        Assert.Equal(new Step.Claim(8), m.Next(new Registered(8)));
        var stop = Assert.IsType<Step.Stop>(m.Next(new CallFailed(ApiStatus.Unauthorized, "bad token")));
        Assert.Equal(1, stop.ExitCode);
    }

    [Fact]
    public void Registration_retries_while_the_service_is_down()
    {
        var m = Machine();
        m.Next(new Started());
        Assert.IsType<Step.Wait>(m.Next(new CallFailed(ApiStatus.Transient, "connection refused")));
        Assert.IsType<Step.Register>(m.Next(new WaitOver()));
    }

    [Fact]
    public void Stopping_during_a_job_still_reports_it_then_stops()
    {
        var m = Claiming();
        m.Next(new Claimed(_job));
        m.RequestStop();
        // No drain on the way out: there is only a moment, and the spool survives the restart anyway.
        var complete = Assert.IsType<Step.Complete>(m.Next(new JobFinished(JobOutcome.Cancelled("agent stopping"))));
        Assert.Equal(JobOutcomeKind.Cancelled, complete.Outcome.Kind);
        Assert.Equal(0, Assert.IsType<Step.Stop>(m.Next(new Completed())).ExitCode);
    }

    [Fact]
    public void Stopping_while_idle_stops_at_once()
    {
        var m = Claiming();
        m.RequestStop();
        Assert.IsType<Step.Stop>(m.Next(new CallFailed(ApiStatus.Transient, "stopping")));
    }
}
