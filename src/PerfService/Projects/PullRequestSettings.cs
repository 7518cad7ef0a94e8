using PerfService.Data.Entities;

namespace PerfService.Projects;

/// <summary>The project's <c>pullRequests</c> settings: who runs without approval, and the label that
/// approves.</summary>
public static class PullRequestSettings
{
    internal static Dictionary<string, string[]>? Validate(PullRequestSettingsRequest? request)
    {
        var errors = new Dictionary<string, string[]>();
        if (request?.Run is { } run && Parse(run) is null)
            errors["pullRequests.run"] =
            [
                $"must be '{Name(PullRequestPolicy.Members)}' (outside contributors wait for approval), "
                    + $"'{Name(PullRequestPolicy.All)}' or '{Name(PullRequestPolicy.None)}'",
            ];
        // GitHub allows label names of up to 50 characters.
        if (
            request?.ApprovalLabel is { } label
            && (string.IsNullOrWhiteSpace(label) || label.Length > 50 || label.Any(char.IsControl))
        )
            errors["pullRequests.approvalLabel"] = ["must be a GitHub label name: 1 to 50 printable characters"];
        return errors.Count > 0 ? errors : null;
    }

    internal static void Apply(Project project, PullRequestSettingsRequest? request)
    {
        if (request?.Run is { } run)
            project.PullRequestPolicy = Parse(run)!.Value;
        if (request?.ApprovalLabel is { } label)
            project.ApprovalLabel = label.Trim();
    }

    /// <summary>How the API spells a policy: its name in lower case ("members").</summary>
    public static string Name(PullRequestPolicy policy) => policy.ToString().ToLowerInvariant();

    // By name only: Enum.TryParse also takes numbers ("1") and lists ("all,none"), which are not policies.
    private static PullRequestPolicy? Parse(string run) =>
        Enum.GetValues<PullRequestPolicy>()
            .Select(p => (PullRequestPolicy?)p)
            .FirstOrDefault(p => string.Equals(Name(p!.Value), run, StringComparison.OrdinalIgnoreCase));
}
