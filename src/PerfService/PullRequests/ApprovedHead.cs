using PerfService.Core.Contracts;

namespace PerfService.PullRequests;

/// <summary>The body of POST …/pulls/{pr}/approve: the head commit the approver reviewed (its full SHA, or a prefix of
/// at least 7 characters).</summary>
public sealed record PullRequestApprovalRequest(string? HeadCommit);

/// <summary>Whether an approval names the head that is waiting now; a refusal says which head that is.</summary>
public static class ApprovedHead
{
    public sealed record Refusal(int Status, string Title, string Detail);

    public static Refusal? Check(string? named, string current)
    {
        if (string.IsNullOrWhiteSpace(named))
            return new(
                StatusCodes.Status400BadRequest,
                "Head commit required",
                $"headCommit is required: the head SHA you reviewed (the waiting head is {current})"
            );
        if (named.Trim().Length < 7 || !CommitId.IsValid(named.Trim()))
            return new(
                StatusCodes.Status400BadRequest,
                "Invalid head commit",
                "headCommit must be the reviewed commit's SHA, or at least its first 7 hexadecimal characters"
            );
        return current.StartsWith(named.Trim().ToLowerInvariant(), StringComparison.Ordinal)
            ? null
            : new(
                StatusCodes.Status409Conflict,
                "Head changed",
                $"the pull request's head is now {current}, not {named}: review {current} and approve it"
            );
    }
}
