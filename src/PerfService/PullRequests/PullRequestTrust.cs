using PerfService.GitHub;

namespace PerfService.PullRequests;

/// <summary>
/// Whether a pull request's new head runs on agents without a maintainer's approval, under the project policy
/// <c>members</c>. Trusted: a branch of the repository itself (only people with write access can push there), or a
/// fork branch of an OWNER, MEMBER or COLLABORATOR when that author did the action that brought the head (GitHub's
/// <c>author_association</c> describes the author, not the sender, and others can push to a fork). Everything else
/// (outside contributors, first-timers, a push by someone else to a member's fork, a deleted fork) waits for approval.
/// </summary>
public static class PullRequestTrust
{
    private static readonly string[] s_trustedAssociations = ["OWNER", "MEMBER", "COLLABORATOR"];

    public static bool IsTrusted(PullRequestEvent e)
    {
        var head = e.PullRequest.Head.Repo;
        var target = e.PullRequest.Base.Repo ?? e.Repository;
        if (head is not null && SameRepository(head, target))
            return true;
        if (
            e.PullRequest.AuthorAssociation is not { } association
            || !s_trustedAssociations.Contains(association, StringComparer.Ordinal)
        )
            return false;
        return e.PullRequest.User is { } author
            && e.Sender is { } sender
            && string.Equals(author.Login, sender.Login, StringComparison.OrdinalIgnoreCase);
    }

    // The id survives renames and cannot be taken over by a fork of the same name; names only when an id is missing.
    private static bool SameRepository(RepositoryPayload a, RepositoryPayload b) =>
        a.Id is { } x && b.Id is { } y
            ? x == y
            : string.Equals(a.FullName, b.FullName, StringComparison.OrdinalIgnoreCase);
}
