using System.Security.Cryptography;
using System.Text;
using PerfService.Agents.Processes;

namespace PerfService.Agents.Jobs;

/// <summary>
/// Keeps one clone per repository under {workdir}/repos/&lt;hash of url&gt; (cloned once, fetched after) and one git
/// worktree per side (head, base) under {workdir}/work/&lt;hash&gt;/&lt;side&gt;. A side's worktree survives between
/// trusted jobs so build caches (cargo's target/, dotnet's bin/ obj/) stay warm; everything else is cleaned before
/// each checkout. Untrusted jobs check out into a fresh folder of their own (<see cref="CheckoutAsync"/>'s
/// <c>freshRoot</c>) that is deleted afterwards. Every git call runs with hooks disabled and options separated from
/// arguments, and every commit id is checked as a SHA before it reaches git (<see cref="CommitId"/>).
/// </summary>
public sealed class GitWorkspace(ProcessRunner processes, string workDir)
{
    private static readonly string[] _keptCaches = ["target/", "bin/", "obj/"];
    private static readonly TimeSpan _timeout = TimeSpan.FromMinutes(30);

    public static string Hash(string url)
    {
        var bytes = SHA256.HashData(Encoding.UTF8.GetBytes(Normalize(url)));
        return Convert.ToHexStringLower(bytes)[..16];
    }

    // A local path and the same path with a trailing slash are the same repository.
    private static string Normalize(string url) =>
        Directory.Exists(url) ? Path.GetFullPath(url).TrimEnd('/') : url.Trim().TrimEnd('/');

    /// <summary>Clone or fetch <paramref name="url"/> so that every commit in <paramref name="commits"/> is
    /// present.</summary>
    public async Task<string> FetchAsync(
        string url,
        int? pullRequest,
        IReadOnlyList<string> commits,
        Action<string> log,
        CancellationToken ct
    )
    {
        var source = Normalize(url);
        var repo = Path.Combine(workDir, "repos", Hash(url));
        if (!Directory.Exists(Path.Combine(repo, ".git")))
        {
            // Clone beside and rename, so a clone cut short never looks like a repository.
            var temp = $"{repo}.tmp-{Guid.NewGuid():N}";
            Directory.CreateDirectory(Path.GetDirectoryName(repo)!);
            log($"cloning {url}");
            try
            {
                await GitAsync(workDir, ["clone", "--no-checkout", "--quiet", "--", source, temp], log, ct);
                if (Directory.Exists(repo))
                    Directory.Delete(repo, recursive: true);
                Directory.Move(temp, repo);
            }
            finally
            {
                if (Directory.Exists(temp))
                    Directory.Delete(temp, recursive: true);
            }
        }
        else
        {
            log($"fetching {url}");
            await GitAsync(repo, ["fetch", "--prune", "--tags", "--force", "--quiet", "--", "origin"], log, ct);
        }
        foreach (var commit in commits)
        {
            CommitId.Require(commit);
            if (await HasCommitAsync(repo, commit, ct))
                continue;
            // A pull request's head lives outside the branches on GitHub; otherwise ask for the commit itself.
            if (pullRequest is { } pr)
                await TryGitAsync(
                    repo,
                    ["fetch", "--quiet", "--", "origin", $"+refs/pull/{pr}/head:refs/remotes/origin/pr/{pr}"],
                    ct
                );
            if (!await HasCommitAsync(repo, commit, ct))
                await TryGitAsync(repo, ["fetch", "--quiet", "--", "origin", commit], ct);
            if (!await HasCommitAsync(repo, commit, ct))
                throw new JobFailedException($"commit {commit} not found in {url}");
        }
        return repo;
    }

    /// <summary>A clean checkout of <paramref name="commit"/> for <paramref name="side"/>: in the side's reused
    /// worktree, or, with <paramref name="freshRoot"/>, in a new worktree under that folder (an untrusted
    /// job's).</summary>
    public async Task<string> CheckoutAsync(
        string repo,
        string side,
        string commit,
        Action<string> log,
        CancellationToken ct,
        string? freshRoot = null
    )
    {
        CommitId.Require(commit);
        var tree = freshRoot is null
            ? Path.Combine(workDir, "work", Path.GetFileName(repo), side)
            : Path.Combine(freshRoot, side);
        log($"checking out {commit} ({side}{(freshRoot is null ? "" : ", fresh folder")})");
        // Whatever the previous job left (untracked files, build output other than the kept caches) goes before
        // the checkout, so nothing of it can shadow or alter the next commit's files.
        if (
            freshRoot is null
            && File.Exists(Path.Combine(tree, ".git"))
            && await TryGitAsync(tree, ["clean", "-ffdxq", .. _keptCaches.SelectMany(c => new[] { "-e", c })], ct)
            && await TryGitAsync(tree, ["checkout", "--force", "--quiet", "--detach", commit, "--"], ct)
        )
        {
            await GitAsync(tree, ["clean", "-ffdxq", .. _keptCaches.SelectMany(c => new[] { "-e", c })], log, ct);
        }
        else
        {
            // Missing, fresh, or its repository was re-cloned under it: start this side afresh.
            if (Directory.Exists(tree))
                Directory.Delete(tree, recursive: true);
            Directory.CreateDirectory(Path.GetDirectoryName(tree)!);
            await GitAsync(repo, ["worktree", "prune"], log, ct);
            await GitAsync(repo, ["worktree", "add", "--force", "--detach", "--", tree, commit], log, ct);
        }
        var head = (await GitAsync(tree, ["rev-parse", "HEAD"], log, ct)).Trim();
        if (!head.StartsWith(commit, StringComparison.OrdinalIgnoreCase))
            throw new JobFailedException($"checkout of {commit} in {tree} ended at {head}");
        return tree;
    }

    /// <summary>Forgets the worktrees of a deleted fresh folder.</summary>
    public async Task PruneAsync(string repo, CancellationToken ct) =>
        await TryGitAsync(repo, ["worktree", "prune"], ct);

    /// <summary>The commit's committer date and subject: the service orders a branch's history by commit
    /// time.</summary>
    public async Task<(DateTimeOffset? At, string? Subject)> DescribeAsync(
        string tree,
        string commit,
        Action<string> log,
        CancellationToken ct
    )
    {
        var text = (
            await GitAsync(tree, ["show", "-s", "--format=%cI%n%s", CommitId.Require(commit), "--"], log, ct)
        ).Split('\n', 2);
        var at = DateTimeOffset.TryParse(
            text[0].Trim(),
            System.Globalization.CultureInfo.InvariantCulture,
            System.Globalization.DateTimeStyles.None,
            out var d
        )
            ? d
            : (DateTimeOffset?)null;
        return (at, text.Length > 1 ? text[1].Trim() : null);
    }

    private async Task<bool> HasCommitAsync(string repo, string commit, CancellationToken ct) =>
        await TryGitAsync(repo, ["cat-file", "-e", $"{commit}^{{commit}}"], ct);

    private async Task<bool> TryGitAsync(string dir, string[] args, CancellationToken ct) =>
        (await processes.RunAsync(Spec(dir, args), ct: ct)).Succeeded;

    private async Task<string> GitAsync(string dir, string[] args, Action<string> log, CancellationToken ct)
    {
        var result = await processes.RunAsync(Spec(dir, args) with { CaptureStdout = true }, ct: ct);
        if (!result.Succeeded)
        {
            foreach (var line in result.Tail)
                log(line);
            throw new JobFailedException(
                $"git {args[0]} failed ({(result.TimedOut ? "timed out" : $"exit {result.ExitCode}")}):\n{string.Join('\n', result.Tail)}"
            );
        }
        return result.Stdout;
    }

    // Hooks would run code of the repository in the agent's own process tree (core.hooksPath=/dev/null turns them all
    // off); ext:: URLs would run commands; worktrees handed to a --run-as user are owned by that user.
    private static readonly string[] _safety =
    [
        "-c",
        "core.hooksPath=/dev/null",
        "-c",
        "protocol.ext.allow=never",
        "-c",
        "safe.directory=*",
    ];

    private static ProcessSpec Spec(string dir, string[] args) =>
        new("git", [.. _safety, .. args], dir)
        {
            Timeout = _timeout,
            // Never wait for a password prompt nobody will answer.
            Environment = new Dictionary<string, string?>
            {
                ["GIT_TERMINAL_PROMPT"] = "0",
                ["GIT_ASKPASS"] = "true",
                // Git is the agent's own tool, never a harness: it may use the agent's SSH credentials for private
                // clones.
                ["SSH_AUTH_SOCK"] = System.Environment.GetEnvironmentVariable("SSH_AUTH_SOCK"),
                ["GIT_SSH_COMMAND"] = System.Environment.GetEnvironmentVariable("GIT_SSH_COMMAND"),
            },
        };
}
