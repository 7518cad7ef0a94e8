using PerfService.Agents.Client;
using PerfService.Agents.Jobs;
using PerfService.Agents.Machine;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Worker;

/// <summary>Runs a job while heartbeating every few seconds (progress + new log lines). A heartbeat that says cancel,
/// or that finds the lease gone, cancels the job's token, which kills the harness's process tree.</summary>
public sealed class JobSupervisor(PerfServiceClient client, JobRunner runner, TimeSpan interval)
{
    public async Task<JobOutcome> RunAsync(
        long agentId,
        JobAssignment job,
        AgentIdentity identity,
        JobLog log,
        CancellationToken stopping
    )
    {
        using var jobCts = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        using var beatCts = new CancellationTokenSource();
        var verdict = HeartbeatDecision.KeepRunning;
        string? reason = null;
        var beats = Task.Run(
            async () =>
            {
                IReadOnlyList<string>? unsent = null;
                // At least three heartbeats per lease, however short the service makes it.
                var every = TimeSpan.FromSeconds(
                    Math.Min(interval.TotalSeconds, Math.Max(0.5, job.LeaseSeconds / 3.0))
                );
                using var timer = new PeriodicTimer(every);
                try
                {
                    while (await timer.WaitForNextTickAsync(beatCts.Token))
                    {
                        var batch = unsent ??= log.TakeNew();
                        // The job's end stops the loop between heartbeats, never during one: a heartbeat cut off
                        // in flight would take its lines with it.
                        var result = await client.HeartbeatAsync(
                            job.JobId,
                            new HeartbeatRequest(agentId, log.Progress, batch),
                            stopping
                        );
                        // Lines of a heartbeat that did not get through go again with the next one.
                        unsent = result.IsSuccess ? null : batch;
                        var decision = HeartbeatPolicy.Decide(result);
                        if (decision == HeartbeatDecision.KeepRunning)
                            continue;
                        (verdict, reason) = (decision, result.Value?.Reason ?? result.Error);
                        await jobCts.CancelAsync();
                        return;
                    }
                }
                finally
                {
                    // Lines no heartbeat delivered go with the job's completion.
                    if (unsent is not null)
                        log.PutBack(unsent);
                }
            },
            CancellationToken.None
        );

        JobOutcome? outcome = null;
        try
        {
            outcome = await runner.RunAsync(agentId, job, identity, log, jobCts.Token);
        }
        catch (OperationCanceledException) when (jobCts.IsCancellationRequested)
        {
            // Decided below, once the heartbeat loop has said why.
        }
        catch (Exception e)
        {
            // A bug or an unexpected I/O error: this job fails, the agent goes on to the next.
            log.Note($"error: agent failure: {e}");
            outcome = JobOutcome.Failed($"agent error: {e.GetType().Name}: {e.Message}");
        }
        await beatCts.CancelAsync();
        try
        {
            await beats;
        }
        catch (OperationCanceledException)
        {
            // The loop's normal end.
        }
        return verdict switch
        {
            HeartbeatDecision.Abandon => JobOutcome.LeaseLost,
            HeartbeatDecision.Cancel when outcome is null => JobOutcome.Cancelled(reason),
            _ => outcome ?? JobOutcome.Cancelled("agent stopping"),
        };
    }
}
