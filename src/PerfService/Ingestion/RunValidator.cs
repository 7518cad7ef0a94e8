using PerfService.Core.Contracts;
using PerfService.Core.Parsing;
using PerfService.Hosting;

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
        Require(
            m.Branch is null || (m.Branch.Length is > 0 and <= 250 && !m.Branch.Any(char.IsControl)),
            "branch",
            "must be 1 to 250 printable characters"
        );
        Require(m.PullRequest is null or > 0, "pullRequest", "must be a positive number");
        Require(RunRoles.TryParse(m.Role, out _), "role", "must be 'head' or 'base'");
        Require(m.Round is null or >= 0 and <= 1000, "round", "must be between 0 and 1000");
        Require(
            m.Suite is null || (m.Suite.Length is > 0 and <= 200 && !m.Suite.Any(char.IsControl)),
            "suite",
            "must be 1 to 200 printable characters"
        );
        Require(m.Agent is null || m.Agent.Length <= 200, "agent", "must be at most 200 characters");
        Require(m.Environment is null || m.Environment.Count <= 200, "environment", "may hold at most 200 entries");
        // PostgreSQL text cannot hold U+0000: refused here, by name, instead of failing the write with 22021 (a 500).
        foreach (
            var (field, text) in new[]
            {
                ("project", m.Project),
                ("profile", m.Profile),
                ("agent", m.Agent),
                ("commitMessage", m.CommitMessage),
                ("format", m.Format),
            }
        )
            Require(!NulText.In(text), field, NulText.Rule);
        foreach (var (key, value) in m.Environment ?? new Dictionary<string, string>())
            Require(!NulText.In(key) && !NulText.In(value), $"environment['{NulText.Show(key)}']", NulText.Rule);
        foreach (var target in m.Targets ?? [])
            Require(!NulText.In(target.Name) && !NulText.In(target.Benchmark), "targets", NulText.Rule);
        if (m.Disturbance is { } d)
            ValidateDisturbance(d);
    }

    /// <summary>An agent's measurement of its round, bounded like any other input: shares between 0 and 1, counts and
    /// durations finite and within what a machine can report.</summary>
    private static void ValidateDisturbance(Disturbance d)
    {
        static bool Within(double? x, double max) => x is not { } v || (double.IsFinite(v) && v >= 0 && v <= max);
        Require(d.Attempts is >= 1 and <= 100, "disturbance.attempts", "must be between 1 and 100");
        Require(
            Within(d.Seconds, 7 * 24 * 3600),
            "disturbance.seconds",
            "must be a finite number of seconds between 0 and a week"
        );
        Require(d.SuiteCores is >= 1 and <= 16384, "disturbance.suiteCores", "must be between 1 and 16384");
        Require(Within(d.OtherCpuShare, 1), "disturbance.otherCpuShare", "must be a finite share between 0 and 1");
        Require(Within(d.StealShare, 1), "disturbance.stealShare", "must be a finite share between 0 and 1");
        Require(
            Within(d.OtherRunnable, 1e6),
            "disturbance.otherRunnable",
            "must be a finite number between 0 and 1000000"
        );
        Require(Within(d.LoadAverage, 1e6), "disturbance.loadAverage", "must be a finite number between 0 and 1000000");
        Require(Within(d.FrequencyRatio, 10), "disturbance.frequencyRatio", "must be a finite ratio between 0 and 10");
        Require(
            d.ThrottleEvents is null or >= 0 and <= 1_000_000_000_000,
            "disturbance.throttleEvents",
            "must be between 0 and 10^12"
        );
    }

    /// <summary>What the harness files said, checked like the metadata: the field at fault is named with its
    /// benchmark.</summary>
    public static void ValidateResults(ParseResult parsed, string file)
    {
        foreach (var r in parsed.Results)
        {
            var field =
                NulText.In(r.Name) ? "name"
                : r.Parameters.Any(p => NulText.In(p.Key) || NulText.In(p.Value)) ? "parameter"
                : NulText.In(r.Unit) ? "unit"
                : NulText.In(r.Measure) ? "measure"
                : NulText.In(r.Job) ? "job"
                : NulText.In(r.Error) ? "error"
                : null;
            if (field is not null)
                throw new UploadException(
                    400,
                    "Invalid results",
                    $"benchmark '{NulText.Show(r.Name)}': its {field} {NulText.Rule}",
                    file
                );
        }
        if (parsed.Environment.FirstOrDefault(e => NulText.In(e.Key) || NulText.In(e.Value)) is { Key: not null } env)
            throw new UploadException(
                400,
                "Invalid results",
                $"environment entry '{NulText.Show(env.Key)}' {NulText.Rule}",
                file
            );
    }

    private static void Require(bool ok, string field, string what)
    {
        if (!ok)
            throw new UploadException(400, "Invalid run metadata", $"run.{field} {what}", "run", $"$.{field}");
    }
}
