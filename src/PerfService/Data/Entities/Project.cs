namespace PerfService.Data.Entities;

public class Project
{
    public long Id { get; set; }

    /// <summary>URL-safe identifier used by the API and the CLI (<c>--project</c>).</summary>
    public required string Slug { get; set; }
    public required string Name { get; set; }
    public string? RepositoryUrl { get; set; }
    public string DefaultBranch { get; set; } = "main";
    public bool IsPublic { get; set; } = true;

    /// <summary>owner/name on GitHub, when the project is connected.</summary>
    public string? GitHubRepository { get; set; }

    /// <summary>Queue runs of the untested commits inside a change point's range to find the culprit (off by default:
    /// it costs agent time).</summary>
    public bool Bisect { get; set; }

    /// <summary>
    /// Rounds a side a pull request may use in all (its job and the re-runs that add rounds to it) before an
    /// inconclusive
    /// verdict stays inconclusive; null: <see cref="DefaultRoundBudget"/>.
    /// </summary>
    public int? RoundBudget { get; set; }

    public const int DefaultRoundBudget = 12;

    /// <summary>
    /// Let runs flagged as a profile mismatch (the agent's machine did not match its profile) feed pull-request
    /// baselines, noise thresholds and change-point detection. Off by default: such runs are kept and shown, but a
    /// different machine's figures would move the baseline.
    /// </summary>
    public bool IncludeProfileMismatch { get; set; }

    public int EffectiveRoundBudget => RoundBudget ?? DefaultRoundBudget;

    /// <summary>Which pull requests run on agents without a maintainer's approval.</summary>
    public PullRequestPolicy PullRequestPolicy { get; set; } = PullRequestPolicy.Members;

    /// <summary>The GitHub label whose addition approves a pull request's current head commit.</summary>
    public string ApprovalLabel { get; set; } = DefaultApprovalLabel;
    public DateTimeOffset CreatedAt { get; set; }

    public const string DefaultApprovalLabel = "perf:run";
}

/// <summary>
/// <see cref="Members"/>: pull requests whose branch is in the repository itself, or whose author is an owner, member
/// or
/// collaborator, run at once; others wait for approval. <see cref="All"/>: every pull request runs. <see cref="None"/>:
/// no pull request is benchmarked.
/// </summary>
public enum PullRequestPolicy
{
    Members,
    All,
    None,
}
