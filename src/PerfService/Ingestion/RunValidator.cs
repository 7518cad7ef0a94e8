using PerfService.Core.Contracts;

namespace PerfService.Ingestion;

/// <summary>Checks the run's metadata before anything touches the database.</summary>
public static class RunValidator
{
    public static void Validate(RunMetadata m)
    {
        Require(!string.IsNullOrWhiteSpace(m.Project), "project", "is required");
        // The one rule for commit ids entering the service (runs, job requests, webhooks).
        Require(CommitId.IsValid(m.Commit), "commit", CommitId.Rule);
        Require(m.BaseCommit is null || CommitId.IsValid(m.BaseCommit), "baseCommit", CommitId.Rule);
        Require(!string.IsNullOrWhiteSpace(m.Profile), "profile", "is required (e.g. ryzen-9950x)");
        Require(m.Branch is null || (m.Branch.Length is > 0 and <= 250 && !m.Branch.Any(char.IsControl)), "branch", "must be 1 to 250 printable characters");
        Require(m.PullRequest is null or > 0, "pullRequest", "must be a positive number");
        Require(RunRoles.TryParse(m.Role, out _), "role", "must be 'head' or 'base'");
        Require(m.Round is null or >= 0 and <= 1000, "round", "must be between 0 and 1000");
        Require(m.Suite is null || (m.Suite.Length is > 0 and <= 200 && !m.Suite.Any(char.IsControl)), "suite", "must be 1 to 200 printable characters");
        Require(m.Agent is null || m.Agent.Length <= 200, "agent", "must be at most 200 characters");
        Require(m.Environment is null || m.Environment.Count <= 200, "environment", "may hold at most 200 entries");
    }

    private static void Require(bool ok, string field, string what)
    {
        if (!ok) throw new UploadException(400, "Invalid run metadata", $"run.{field} {what}", "run", $"$.{field}");
    }
}
