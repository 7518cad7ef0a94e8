namespace PerfService.Data.Entities;

/// <summary>
/// The newest head of a pull request as GitHub's events told it, one row per project and pull request. An event older
/// than the one recorded (by the pull request's <c>updated_at</c>) is stale and queues nothing.
/// </summary>
public class PullRequestHead
{
    public long Id { get; set; }
    public long ProjectId { get; set; }
    public int PullRequest { get; set; }
    public required string HeadCommit { get; set; }

    /// <summary>owner/name the head branch lives in; null when GitHub no longer knows it (a deleted fork).</summary>
    public string? HeadRepository { get; set; }
    public string? Author { get; set; }
    public string? AuthorAssociation { get; set; }

    /// <summary>Whether this head passed the automatic trust rule (same repository, or a trusted author
    /// pushing).</summary>
    public bool Trusted { get; set; }

    /// <summary>The pull request's <c>updated_at</c> in the newest event seen: orders events that arrive out of
    /// order.</summary>
    public DateTimeOffset UpdatedAt { get; set; }
    public DateTimeOffset ReceivedAt { get; set; }
}
