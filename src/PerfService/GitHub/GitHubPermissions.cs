using System.Collections.Concurrent;
using Octokit;

namespace PerfService.GitHub;

/// <summary>
/// Whether a GitHub user may act on a repository through PerfService (check buttons, comment commands): write access
/// or more, read from GET /repos/{owner}/{repo}/collaborators/{user}/permission. Answers are cached for a few minutes,
/// so a burst of commands costs one call, and a revoked permission stops working soon after.
/// </summary>
public sealed class GitHubPermissions(
    GitHubClientProvider clients,
    GitHubRetry retry,
    TimeProvider time,
    ILogger<GitHubPermissions> logger
)
{
    public static readonly TimeSpan CacheFor = TimeSpan.FromMinutes(5);
    private static readonly string[] s_writers = ["admin", "maintain", "write"];
    private readonly ConcurrentDictionary<string, (bool Allowed, DateTimeOffset Until)> _cache = new(
        StringComparer.OrdinalIgnoreCase
    );

    public async Task<bool> CanWriteAsync(GitHubRepo repo, string login, CancellationToken ct)
    {
        var key = $"{repo}:{login}";
        var now = time.GetUtcNow();
        if (_cache.TryGetValue(key, out var known) && known.Until > now)
            return known.Allowed;

        bool allowed;
        try
        {
            var github = await retry.RunAsync(
                "authentication",
                () => clients.ForRepositoryAsync(repo.Owner, repo.Name, ct),
                ct
            );
            var answer = await retry.RunAsync(
                "permission",
                () => github.Repository.Collaborator.ReviewPermission(repo.Owner, repo.Name, login),
                ct
            );
            // The legacy field folds "maintain" into "write"; it is listed anyway should GitHub send the role itself.
            allowed = s_writers.Contains(answer.Permission, StringComparer.OrdinalIgnoreCase);
        }
        catch (NotFoundException)
        {
            // Not a collaborator (or no such user): no access at all.
            allowed = false;
        }
        logger.LogInformation(
            "GitHub user {Login} {Verdict} write access to {Repository}",
            login,
            allowed ? "has" : "lacks",
            repo
        );
        _cache[key] = (allowed, now + CacheFor);
        return allowed;
    }
}
