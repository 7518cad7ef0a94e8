using PerfService.Agents.Jobs;
using PerfService.Agents.Processes;
using PerfService.Agents.Tests.Support;

namespace PerfService.Agents.Tests.Jobs;

/// <summary>What one job can leave for the next in the agent's clones and worktrees, against real repositories.</summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class GitHygieneTests : IDisposable
{
    private readonly TempDir _dir = new();
    private readonly GitWorkspace _git;
    private readonly List<string> _log = [];
    private readonly string _origin;

    public GitHygieneTests()
    {
        _git = new GitWorkspace(new ProcessRunner(), _dir.Combine("work"));
        _origin = Git.Init(_dir.Combine("origin"));
    }

    private string PlantHook(string hooks, string name, string marker)
    {
        Directory.CreateDirectory(hooks);
        var file = Path.Combine(hooks, name);
        File.WriteAllText(file, $"#!/bin/sh\necho ran >> '{marker}'\n");
        File.SetUnixFileMode(file, (UnixFileMode)0b111_101_101);
        return file;
    }

    [Fact]
    public async Task Hooks_planted_in_the_agents_clone_never_run()
    {
        var first = Git.Commit(_origin, "one", ("a.txt", "1"));
        var repo = await _git.FetchAsync(_origin, null, [first], _log.Add, CancellationToken.None);
        // A harness that could write the clone plants hooks, and points core.hooksPath at its own folder too.
        var marker = _dir.Combine("hook-ran");
        foreach (var hook in new[] { "post-checkout", "reference-transaction", "post-index-change", "pre-auto-gc" })
        {
            PlantHook(Path.Combine(repo, ".git", "hooks"), hook, marker);
            PlantHook(_dir.Combine("evil-hooks"), hook, marker);
        }
        Git.Run(repo, "config", "core.hooksPath", _dir.Combine("evil-hooks"));

        var second = Git.Commit(_origin, "two", ("a.txt", "2"));
        repo = await _git.FetchAsync(_origin, null, [second], _log.Add, CancellationToken.None);
        var tree = await _git.CheckoutAsync(repo, "head", second, _log.Add, CancellationToken.None);
        await _git.CheckoutAsync(repo, "head", first, _log.Add, CancellationToken.None);
        await _git.DescribeAsync(tree, first, _log.Add, CancellationToken.None);
        Assert.False(File.Exists(marker), "a hook ran inside the agent");

        // The same checkout by plain git runs them: the hooks were live.
        Git.Run(tree, "checkout", "--quiet", "--detach", second);
        Assert.True(File.Exists(marker));
    }

    [Fact]
    public async Task Whatever_a_previous_job_left_untracked_is_gone_before_the_next_checkout()
    {
        var commit = Git.Commit(_origin, "one", ("a.txt", "1"), (".gitignore", "*.log\n"));
        var repo = await _git.FetchAsync(_origin, null, [commit], _log.Add, CancellationToken.None);
        var tree = await _git.CheckoutAsync(repo, "head", commit, _log.Add, CancellationToken.None);
        File.WriteAllText(Path.Combine(tree, "planted.sh"), "echo poisoned");
        File.WriteAllText(Path.Combine(tree, "ignored.log"), "ignored files go too");
        Git.Init(Path.Combine(tree, "nested")); // a nested repository: only the second -f removes it
        Git.Commit(Path.Combine(tree, "nested"), "n", ("x", "y"));

        var again = await _git.CheckoutAsync(repo, "head", commit, _log.Add, CancellationToken.None);
        Assert.Equal(tree, again);
        Assert.False(File.Exists(Path.Combine(tree, "planted.sh")));
        Assert.False(File.Exists(Path.Combine(tree, "ignored.log")));
        Assert.False(Directory.Exists(Path.Combine(tree, "nested")));
        Assert.Equal("1", File.ReadAllText(Path.Combine(tree, "a.txt")));
    }

    [Fact]
    public async Task An_untrusted_checkout_goes_to_its_own_folder_and_leaves_the_shared_worktree_alone()
    {
        var trusted = Git.Commit(_origin, "main", ("a.txt", "main"));
        var outsider = Git.Commit(_origin, "pr", ("a.txt", "pr"));
        var repo = await _git.FetchAsync(_origin, 7, [trusted, outsider], _log.Add, CancellationToken.None);
        var shared = await _git.CheckoutAsync(repo, "head", trusted, _log.Add, CancellationToken.None);
        Directory.CreateDirectory(Path.Combine(shared, "target"));
        File.WriteAllText(Path.Combine(shared, "target", "cache"), "trusted build");

        var fresh = _dir.Combine("work", "untrusted", "job-1");
        var tree = await _git.CheckoutAsync(repo, "head", outsider, _log.Add, CancellationToken.None, fresh);
        Assert.Equal(Path.Combine(fresh, "head"), tree);
        Assert.Equal("pr", File.ReadAllText(Path.Combine(tree, "a.txt")));
        Assert.False(Directory.Exists(Path.Combine(tree, "target")));
        Assert.Equal("main", File.ReadAllText(Path.Combine(shared, "a.txt")));
        Assert.Equal("trusted build", File.ReadAllText(Path.Combine(shared, "target", "cache")));

        Directory.Delete(fresh, recursive: true);
        await _git.PruneAsync(repo, CancellationToken.None);
        Assert.DoesNotContain(fresh, Git.Run(repo, "worktree", "list"));
    }

    [Theory]
    [InlineData("--upload-pack=touch {marker}")]
    [InlineData("-oProxyCommand=touch {marker}")]
    [InlineData("HEAD")]
    [InlineData("main")]
    [InlineData("abc12")]
    public async Task Commit_ids_that_are_not_shas_are_refused_before_git_sees_them(string commit)
    {
        Git.Commit(_origin, "one", ("a.txt", "1"));
        var marker = _dir.Combine("injected");
        commit = commit.Replace("{marker}", marker, StringComparison.Ordinal);
        var e = await Assert.ThrowsAsync<JobFailedException>(() => _git.FetchAsync(_origin, 5, [commit], _log.Add, CancellationToken.None));
        Assert.Contains("is not a commit id", e.Message);
        Assert.False(File.Exists(marker));
    }

    [Theory]
    [InlineData("abc1234", true)]
    [InlineData("0123456789abcdef0123456789abcdef01234567", true)]
    [InlineData("0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef", true)]
    [InlineData("abc123", false)]
    [InlineData("0123456789abcdef0123456789abcdef012345678", false)]
    [InlineData("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde", false)]
    [InlineData("-abc1234", false)]
    [InlineData("abc1234 ", false)]
    [InlineData("ghijklm", false)]
    [InlineData(null, false)]
    public void Commit_id_is_7_to_40_or_64_hex_digits(string? value, bool valid) => Assert.Equal(valid, CommitId.IsValid(value));

    public void Dispose() => _dir.Dispose();
}
