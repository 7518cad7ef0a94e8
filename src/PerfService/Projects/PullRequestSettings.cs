using PerfService.Data.Entities;

namespace PerfService.Projects;

/// <summary>The project's <c>pullRequests</c> settings: who runs without approval, and the label that approves.</summary>
public static class PullRequestSettings
{
    private static readonly string[] s_runs = ["members", "all", "none"];

    internal static Dictionary<string, string[]>? Validate(PullRequestSettingsRequest? request)
    {
        var errors = new Dictionary<string, string[]>();
        if (request?.Run is { } run && !s_runs.Contains(run, StringComparer.OrdinalIgnoreCase))
            errors["pullRequests.run"] = ["must be 'members' (outside contributors wait for approval), 'all' or 'none'"];
        // GitHub allows label names of up to 50 characters.
        if (request?.ApprovalLabel is { } label && (string.IsNullOrWhiteSpace(label) || label.Length > 50 || label.Any(char.IsControl)))
            errors["pullRequests.approvalLabel"] = ["must be a GitHub label name: 1 to 50 printable characters"];
        return errors.Count > 0 ? errors : null;
    }

    internal static void Apply(Project project, PullRequestSettingsRequest? request)
    {
        if (request?.Run is { } run) project.PullRequestPolicy = Enum.Parse<PullRequestPolicy>(run, ignoreCase: true);
        if (request?.ApprovalLabel is { } label) project.ApprovalLabel = label.Trim();
    }
}
