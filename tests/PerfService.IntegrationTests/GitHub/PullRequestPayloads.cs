namespace PerfService.IntegrationTests.GitHub;

/// <summary>
/// pull_request webhook payloads in GitHub's shape (the fields PerfService reads and a few around them). Each payload's
/// <c>updated_at</c> is a second after the previous one's, as GitHub's would be for successive events, unless given.
/// </summary>
public static class PullRequestPayloads
{
    public const long RepositoryId = 1296269;
    public const string BaseSha = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d";
    private static long s_clock = DateTimeOffset.UtcNow.ToUnixTimeSeconds();

    public static DateTimeOffset Tick() => DateTimeOffset.FromUnixTimeSeconds(Interlocked.Increment(ref s_clock));

    /// <param name="fork">owner/name of the fork the branch lives in; null for a branch of the repository itself.</param>
    /// <param name="association">The author's author_association.</param>
    /// <param name="sender">Who did the action; the author unless given.</param>
    public static object PullRequest(string action, int number, string repo, string head, string baseSha = BaseSha, string? fork = null,
        string association = "MEMBER", string author = "octocat", string? sender = null, DateTimeOffset? updatedAt = null, string? label = null,
        string? before = null)
    {
        var name = repo.Split('/')[1];
        var repository = new { id = RepositoryId, full_name = repo, name, default_branch = "main", @private = false };
        object headRepo = fork is null ? repository : new { id = RepositoryId + 1000 + Math.Abs(fork.GetHashCode() % 1000), full_name = fork, name = fork.Split('/')[1], fork = true };
        var at = updatedAt ?? Tick();
        return new
        {
            action,
            number,
            before,
            after = action == "synchronize" ? head : null,
            label = label is null ? null : new { id = 208045946, name = label, color = "f29513", @default = false },
            pull_request = new
            {
                number, state = action == "closed" ? "closed" : "open", title = "Make it faster",
                user = new { login = author, id = 7, type = "User" },
                author_association = association,
                created_at = "2024-01-01T00:00:00Z",
                updated_at = at.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ssZ", System.Globalization.CultureInfo.InvariantCulture),
                head = new { @ref = "feature/faster", sha = head, label = $"{(fork ?? repo).Split('/')[0]}:feature/faster", repo = headRepo },
                @base = new { @ref = "main", sha = baseSha, label = $"{repo.Split('/')[0]}:main", repo = repository },
            },
            repository,
            sender = new { login = sender ?? author, id = 8 },
        };
    }
}
