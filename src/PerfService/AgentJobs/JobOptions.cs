using System.ComponentModel.DataAnnotations;

namespace PerfService.AgentJobs;

public sealed class JobOptions
{
    /// <summary>How long a claim holds a job without a heartbeat.</summary>
    [Range(2, 3600)]
    public int LeaseSeconds { get; set; } = 60;

    /// <summary>How often a job may be claimed before a lost lease fails it.</summary>
    [Range(1, 100)]
    public int MaxAttempts { get; set; } = 3;

    /// <summary>Longest a claim may wait for work (long polling).</summary>
    [Range(0, 300)]
    public int MaxClaimWaitSeconds { get; set; } = 60;

    /// <summary>Interleaved base/head rounds of a pull-request job.</summary>
    [Range(1, 50)]
    public int PullRequestRounds { get; set; } = 2;

    /// <summary>Longest a job's log may grow, in characters (about bytes for build output); past it the oldest lines
    /// are dropped behind a marker, so a chatty or hostile agent cannot grow one row without bound.</summary>
    [Range(1024, 64 * 1024 * 1024)]
    public int MaxLogCharacters { get; set; } = 1024 * 1024;
}
