namespace PerfService.Data.Entities;

public class Commit
{
    public long Id { get; set; }
    public long ProjectId { get; set; }
    public required string Sha { get; set; }
    public string? Message { get; set; }
    public string? Author { get; set; }
    public DateTimeOffset? CommittedAt { get; set; }

    /// <summary>When PerfService first saw the commit: orders a branch's history when no commit time is
    /// known.</summary>
    public DateTimeOffset FirstSeenAt { get; set; }

    /// <summary>Learnt from a push to the project's default branch: a candidate for bisection even without a
    /// run.</summary>
    public bool OnDefaultBranch { get; set; }
}
