using System.Data;
using Npgsql;

namespace PerfService.Ingestion;

/// <summary>
/// A run may name a job only when the job belongs to the run's project, is Running, and is held by an agent of the
/// posting token (admin tokens may post for any agent). Checked inside the run's write transaction with the job row
/// locked FOR SHARE, so a job cannot be completed, swept or handed to another agent between the check and the insert.
/// Only runs that pass carry a job id, and pull-request verdicts read runs by job id: a forged run never feeds one.
/// </summary>
public static class JobHold
{
    /// <summary>Refuses before anything is parsed: only agent (or admin) tokens may name a job at all.</summary>
    public static void CheckPoster(long jobId, RunPoster poster)
    {
        if (!poster.Agent)
            throw new UploadException(
                403,
                "Job not held",
                $"run.jobId {jobId}: only an agent token holding the job may post runs for it; post without jobId instead",
                "run",
                "$.jobId"
            );
    }

    /// <summary>The id of the agent holding the job, which the run is recorded under.</summary>
    public static async Task<long> CheckAsync(
        NpgsqlConnection conn,
        long jobId,
        long projectId,
        string project,
        string? agentName,
        RunPoster poster,
        CancellationToken ct
    )
    {
        CheckPoster(jobId, poster);
        await using var cmd = new NpgsqlCommand(
            """
            SELECT j.project_id, j.state, j.kind, j.agent_id, a.name, a.token_id
            FROM jobs j LEFT JOIN agents a ON a.id = j.agent_id
            WHERE j.id = $1 FOR SHARE OF j
            """,
            conn
        );
        cmd.Parameters.Add(new NpgsqlParameter { Value = jobId });
        await using var r = await cmd.ExecuteReaderAsync(ct);
        // An unknown job and another project's job read the same, so the answer tells nothing about other projects.
        if (!await r.ReadAsync(ct) || r.GetInt64("project_id") != projectId)
            throw new UploadException(
                403,
                "Job not held",
                $"run.jobId {jobId} is not a job of project '{project}'",
                "run",
                "$.jobId"
            );
        // A profiling job's runs are profiled, not measured: as results they would feed verdicts, baselines and change
        // points.
        if (r.GetString("kind") == nameof(Data.Entities.JobKind.Profile))
            throw new UploadException(
                409,
                "Profiling job",
                $"job {jobId} is a profiling job: it posts profiles (POST /api/v1/profiles), not runs",
                "run",
                "$.jobId"
            );
        var state = r.GetString("state");
        if (state != nameof(Data.Entities.JobState.Running))
            throw new UploadException(
                409,
                "Job not running",
                $"job {jobId} is {state}: runs are accepted only while its agent holds it",
                "run",
                "$.jobId"
            );
        var holderId = r.GetInt64("agent_id");
        var holder = r.IsDBNull("name") ? "?" : r.GetString("name");
        var holderToken = r.IsDBNull("token_id") ? (long?)null : r.GetInt64("token_id");
        // 409, not 403: an honest agent meets this when its lease ran out while its results waited in its spool and the
        // job went to another agent; the agent then sets those results aside instead of retrying them for ever.
        if (!poster.Admin && holderToken != poster.TokenId)
            throw new UploadException(
                409,
                "Job held by another agent",
                $"job {jobId} is held by an agent this token did not register (a lease that ran out moves the job on)",
                "run",
                "$.jobId"
            );
        if (agentName is not null && agentName != holder)
            throw new UploadException(
                409,
                "Job held by another agent",
                $"job {jobId} is held by agent '{holder}', not '{agentName}'",
                "run",
                "$.agent"
            );
        return holderId;
    }
}
