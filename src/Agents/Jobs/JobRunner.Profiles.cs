using PerfService.Agents.Isolation;
using PerfService.Agents.Machine;
using PerfService.Agents.Processes;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;
using PerfService.Core.Profiles;
using static PerfService.Core.Contracts.CommitId;

namespace PerfService.Agents.Jobs;

/// <summary>
/// A profiling job (<see cref="JobAssignment.Profiling"/>): each target's benchmark under its harness's profiler
/// (Profiling/), base and head interleaved in the rounds' ABBA order, each profile read back here (a broken one is
/// never posted) and posted to POST /api/v1/profiles through the spool. Nothing of it is posted as a run: a profiled
/// run is slowed by its profiler and feeds no verdict. One target that cannot be profiled fails alone, with a log
/// line that names it; the job fails only when no target could be profiled.
/// </summary>
public sealed partial class JobRunner
{
    private async Task<List<string>> ProfileAsync(
        long agentId,
        JobAssignment job,
        ProfilingRequest profiling,
        AgentIdentity identity,
        Dictionary<RunRole, Side> sides,
        HarnessWorkspace workspace,
        JobLog log,
        CancellationToken ct
    )
    {
        var errors = new List<string>();
        var posted = 0;
        for (var t = 0; t < profiling.Targets.Count; t++)
        {
            var target = profiling.Targets[t];
            try
            {
                foreach (var step in JobPlan.Build(job, [target.Suite]))
                {
                    log.Progress =
                        $"profile {t + 1}/{profiling.Targets.Count} {target.Benchmark} ({step.Role.Name()}, round {step.Round}/{step.Rounds})";
                    await ProfileStepAsync(agentId, job, identity, target, step, sides[step.Role], workspace, log, ct);
                }
                posted++;
            }
            catch (JobFailedException e)
            {
                var error = $"profile of {target.Benchmark} (suite {target.Suite}) failed: {e.Message}";
                log.Note($"error: {error}");
                errors.Add(error);
            }
        }
        return posted > 0 || errors.Count == 0 ? [] : errors;
    }

    private async Task ProfileStepAsync(
        long agentId,
        JobAssignment job,
        AgentIdentity identity,
        ProfileTarget target,
        JobStep step,
        Side side,
        HarnessWorkspace workspace,
        JobLog log,
        CancellationToken ct
    )
    {
        var what = $"{target.Benchmark} ({step.Role.Name()}, round {step.Round})";
        var suite =
            side.Manifest?.Suites.FirstOrDefault(s => s.Name == target.Suite)
            ?? throw new JobFailedException(
                $"{step.Role.Name()} {Short(step.Commit)} has no suite {target.Suite} ({side.ManifestError ?? "not in its perf.json"})"
            );
        log.Note($"▶ profiling {what} at {Short(step.Commit)}");
        using var hostLock = options.HostLock is null
            ? null
            : await HostLock.AcquireAsync(options.HostLock, options.HostSlots, log.Note, ct);
        // The suite's extra outputs belong to measuring runs: a profiling run neither deletes nor collects them.
        var run = NewRun(
            job,
            suite with
            {
                Outputs = [],
            },
            step,
            side,
            workspace,
            identity,
            MachineDetector.ReadLoadAverage(),
            hostLock,
            log
        ) with
        {
            ProfiledBenchmark = target.Benchmark,
        };
        var started = clock.GetUtcNow();
        Suites.SuiteOutput output;
        try
        {
            output = await profilers.For(suite.Harness).RunAsync(run, ct);
        }
        catch (Exception e)
            when (e is ProcessStartException or InvalidOperationException or IOException or ProfileFormatException)
        {
            throw new JobFailedException($"{what}: {e.Message}");
        }
        if (!output.Process.Succeeded)
            throw new JobFailedException(
                $"{what}: the profiler {(output.Process.TimedOut ? "timed out" : $"exited with {output.Process.ExitCode}")}:\n{string.Join('\n', output.Process.Tail.TakeLast(10))}"
            );
        var file =
            output.Files.FirstOrDefault() ?? throw new JobFailedException($"{what}: the profiler wrote no profile");
        if (!ProfileFormats.TryParse(output.Format, out var format))
            throw new JobFailedException($"{what}: unknown profile format {output.Format}");
        var samples = Check(what, file, format);
        log.Note(
            $"{what}: {format.Name()} profile, {samples} samples, {file.Content.Length} bytes, in {(clock.GetUtcNow() - started).TotalSeconds:0.0} s"
        );

        var metadata = new ProfileUploadMetadata(
            job.JobId,
            agentId,
            target.Suite,
            target.Benchmark,
            step.Role.Name(),
            format.Name(),
            step.Round
        );
        // Names may hold any character (criterion's are often not ASCII); a header carries ASCII only.
        var key =
            $"job-{job.JobId}-profile-{Uri.EscapeDataString(target.Suite)}-{Uri.EscapeDataString(target.Benchmark)}-{step.Role.Name()}-{step.Round}";
        // Spooled like a run, but retried within the job first: the service takes a profile only while the job is
        // held, so one that waits for the drains between jobs may come too late.
        await SpoolAndPostAsync(key, () => spool.Write(key, metadata, file), options.UploadRetry, log, ct);
    }

    /// <summary>Reads the profile as the service will: one it would refuse is a failure here, where the log says
    /// why.</summary>
    private static long Check(string what, Artifact file, ProfileFormat format)
    {
        try
        {
            var folded = ProfileReader.Read(new MemoryStream(file.Content.ToArray()), format, ProfileLimits.Default);
            return folded.TotalSamples > 0
                ? folded.TotalSamples
                : throw new JobFailedException($"{what}: the profile holds no samples");
        }
        catch (ProfileFormatException e)
        {
            throw new JobFailedException($"{what}: the profile cannot be read: {e.Message}");
        }
    }
}
