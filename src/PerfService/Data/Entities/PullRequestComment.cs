namespace PerfService.Data.Entities;

/// <summary>The one comment PerfService keeps on a pull request for a project, so a retried post updates it.</summary>
public class PullRequestComment
{
    public long Id { get; set; }
    public long ProjectId { get; set; }
    public int PullRequest { get; set; }
    public long? GitHubCommentId { get; set; }

    /// <summary>SHA-256 of the last body posted: an unchanged report is not posted again.</summary>
    public string? BodyHash { get; set; }
    public string? HeadCommit { get; set; }
    public string? LastState { get; set; }

    /// <summary>The check run of <see cref="CheckRunHead"/> (GitHub App installs): updated while that head is current,
    /// a new one is created for a new head.</summary>
    public long? CheckRunId { get; set; }
    public string? CheckRunHead { get; set; }

    /// <summary>What GitHub last accepted for that check run: "queued", "in_progress" or "completed:conclusion". A
    /// completed
    /// run is final on GitHub, so a new state means a new run.</summary>
    public string? CheckRunState { get; set; }

    /// <summary>Lines the service keeps below its report: answers to comment commands (help,
    /// acknowledgements).</summary>
    public string? Notes { get; set; }
    public DateTimeOffset UpdatedAt { get; set; }
}
