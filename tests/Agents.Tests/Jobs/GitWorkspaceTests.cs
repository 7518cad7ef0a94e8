using PerfService.Agents.Jobs;
using PerfService.Agents.Processes;
using PerfService.Agents.Tests.Support;

namespace PerfService.Agents.Tests.Jobs;

/// <summary>Fetch and checkout against real local repositories.</summary>
public sealed class GitWorkspaceTests : IDisposable
{
    private readonly TempDir _dir = new();
    private readonly GitWorkspace _git;
    private readonly List<string> _log = [];
    private readonly string _origin;

    public GitWorkspaceTests()
    {
        _git = new GitWorkspace(new ProcessRunner(), _dir.Combine("work"));
        _origin = Git.Init(_dir.Combine("origin"));
    }

    [Fact]
    public async Task Clones_once_then_fetches_new_commits()
    {
        var first = Git.Commit(_origin, "one", ("a.txt", "1"));
        var repo = await _git.FetchAsync(_origin, null, [first], _log.Add, CancellationToken.None);
        Assert.Equal(_dir.Combine("work", "repos", GitWorkspace.Hash(_origin)), repo);
        Assert.Contains(_log, l => l.StartsWith("cloning", StringComparison.Ordinal));

        var second = Git.Commit(_origin, "two", ("a.txt", "2"));
        Assert.Equal(repo, await _git.FetchAsync(_origin + "/", null, [second], _log.Add, CancellationToken.None));
        Assert.Contains(_log, l => l.StartsWith("fetching", StringComparison.Ordinal));

        var tree = await _git.CheckoutAsync(repo, "head", second, _log.Add, CancellationToken.None);
        Assert.Equal("2", File.ReadAllText(Path.Combine(tree, "a.txt")));
    }

    [Fact]
    public async Task Base_and_head_get_their_own_clean_worktrees_and_build_caches_survive()
    {
        var baseCommit = Git.Commit(_origin, "base", ("lib.rs", "fn base() {}"));
        var head = Git.Commit(_origin, "head", ("lib.rs", "fn head() {}"), ("new.rs", "// added"));
        var repo = await _git.FetchAsync(_origin, null, [head, baseCommit], _log.Add, CancellationToken.None);

        var headTree = await _git.CheckoutAsync(repo, "head", head, _log.Add, CancellationToken.None);
        var baseTree = await _git.CheckoutAsync(repo, "base", baseCommit, _log.Add, CancellationToken.None);
        Assert.NotEqual(headTree, baseTree);
        Assert.Equal("fn head() {}", File.ReadAllText(Path.Combine(headTree, "lib.rs")));
        Assert.Equal("fn base() {}", File.ReadAllText(Path.Combine(baseTree, "lib.rs")));
        Assert.False(File.Exists(Path.Combine(baseTree, "new.rs")));

        // A previous job's leftovers: an edit, stray output, and a build cache.
        File.WriteAllText(Path.Combine(headTree, "lib.rs"), "edited");
        File.WriteAllText(Path.Combine(headTree, "stray.json"), "{}");
        Directory.CreateDirectory(Path.Combine(headTree, "target", "release"));
        File.WriteAllText(Path.Combine(headTree, "target", "release", "cached.rlib"), "cache");

        var again = await _git.CheckoutAsync(repo, "head", baseCommit, _log.Add, CancellationToken.None);
        Assert.Equal(headTree, again);
        Assert.Equal("fn base() {}", File.ReadAllText(Path.Combine(again, "lib.rs")));
        Assert.False(File.Exists(Path.Combine(again, "stray.json")));
        Assert.False(File.Exists(Path.Combine(again, "new.rs")));
        Assert.True(File.Exists(Path.Combine(again, "target", "release", "cached.rlib")));
    }

    [Fact]
    public async Task A_commit_that_does_not_exist_fails_the_job_clearly()
    {
        Git.Commit(_origin, "one", ("a.txt", "1"));
        var missing = new string('b', 40);
        var e = await Assert.ThrowsAsync<JobFailedException>(() => _git.FetchAsync(_origin, 5, [missing], _log.Add, CancellationToken.None));
        Assert.Contains($"commit {missing} not found", e.Message);
    }

    [Fact]
    public async Task A_repository_that_cannot_be_cloned_fails_with_gits_message()
    {
        var e = await Assert.ThrowsAsync<JobFailedException>(() =>
            _git.FetchAsync(_dir.Combine("no-such-repo"), null, ["abc"], _log.Add, CancellationToken.None));
        Assert.Contains("git clone failed", e.Message);
        Assert.False(Directory.Exists(_dir.Combine("work", "repos", GitWorkspace.Hash(_dir.Combine("no-such-repo")))));
    }

    [Fact]
    public async Task A_worktree_whose_clone_was_replaced_is_rebuilt()
    {
        var commit = Git.Commit(_origin, "one", ("a.txt", "1"));
        var repo = await _git.FetchAsync(_origin, null, [commit], _log.Add, CancellationToken.None);
        await _git.CheckoutAsync(repo, "head", commit, _log.Add, CancellationToken.None);
        Directory.Delete(repo, recursive: true); // e.g. removed by hand to free disk
        repo = await _git.FetchAsync(_origin, null, [commit], _log.Add, CancellationToken.None);
        var tree = await _git.CheckoutAsync(repo, "head", commit, _log.Add, CancellationToken.None);
        Assert.Equal("1", File.ReadAllText(Path.Combine(tree, "a.txt")));
    }

    public void Dispose() => _dir.Dispose();
}
