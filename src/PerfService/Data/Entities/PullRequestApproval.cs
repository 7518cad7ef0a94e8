namespace PerfService.Data.Entities;

/// <summary>A maintainer's approval of one head commit of a pull request; a new push needs a new approval.</summary>
public class PullRequestApproval
{
    public long Id { get; set; }
    public long ProjectId { get; set; }
    public int PullRequest { get; set; }
    public required string HeadCommit { get; set; }

    /// <summary>Who approved: "github:LOGIN" for a label, "token:NAME" for the API or the dashboard.</summary>
    public required string ApprovedBy { get; set; }

    /// <summary>How: "label", "api".</summary>
    public required string Source { get; set; }
    public DateTimeOffset ApprovedAt { get; set; }
}
