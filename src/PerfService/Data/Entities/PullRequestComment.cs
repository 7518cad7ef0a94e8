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
    public DateTimeOffset UpdatedAt { get; set; }
}
