using PerfService.Core.Contracts;

namespace PerfService.Alerts;

/// <summary>
/// The key that groups alerts of one cause (<c>alerts.group_key</c>), built and read only here: a pull request's
/// regressions at one head ("pr:{number}:{head}"), a change point's commit range ("range:{from}..{to}"), a failing
/// target on a profile ("target:{name}:{profile}").
/// </summary>
public static class AlertGroupKey
{
    private const string PullRequestPrefix = "pr:";

    public static string PullRequest(int number, string head) => $"{PullRequestPrefix}{number}:{head}";

    public static string Range(string from, string to) => $"range:{CommitId.Short(from)}..{CommitId.Short(to)}";

    public static string Target(string name, string profile) => $"target:{name}:{profile}";

    public static bool IsPullRequest(string key) => key.StartsWith(PullRequestPrefix, StringComparison.Ordinal);

    /// <summary>The pull request a key names, or null for any other key.</summary>
    public static int? PullRequestOf(string key) =>
        key.Split(':') is ["pr", var number, _] && int.TryParse(number, out var pr) ? pr : null;
}
