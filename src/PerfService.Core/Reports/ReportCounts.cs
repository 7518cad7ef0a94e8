using PerfService.Core.Comparison;
using PerfService.Core.Targets;

namespace PerfService.Core.Reports;

/// <summary>How many rows of each outcome a report (or one profile of it) has; the comment and the status both say
/// it.</summary>
public sealed record ReportCounts(
    int Regressions,
    int Improvements,
    int Unchanged,
    int Inconclusive,
    int FailedTargets,
    int Blocking
)
{
    public bool IsEmpty => Regressions + Improvements + Unchanged + Inconclusive + FailedTargets == 0;

    public static ReportCounts Of(IEnumerable<ReportRow> rows, IEnumerable<ReportTarget> targets)
    {
        int regressions = 0,
            improvements = 0,
            unchanged = 0,
            inconclusive = 0,
            failed = 0,
            blocking = 0;
        foreach (var row in rows)
        {
            switch (row.Outcome)
            {
                case Outcome.Regression:
                    regressions++;
                    if (!row.Acknowledged)
                        blocking++;
                    break;
                case Outcome.Improvement:
                    improvements++;
                    break;
                case Outcome.NoChange:
                    unchanged++;
                    break;
                default:
                    inconclusive++;
                    break;
            }
        }
        foreach (var target in targets.Where(t => t.State == TargetStatus.Fail))
        {
            failed++;
            if (!target.Acknowledged)
                blocking++;
        }
        return new ReportCounts(regressions, improvements, unchanged, inconclusive, failed, blocking);
    }

    public static ReportCounts Of(PullRequestReport report) => Of(report.Rows, report.Targets);

    /// <summary>"2 regressions, 1 improvement, 40 unchanged, 1 inconclusive, 1 failed target": the rarer parts only
    /// when present.</summary>
    public string Describe()
    {
        List<string> parts =
        [
            Plural(Regressions, "regression"),
            Plural(Improvements, "improvement"),
            $"{Unchanged} unchanged",
        ];
        if (Inconclusive > 0)
            parts.Add($"{Inconclusive} inconclusive");
        if (FailedTargets > 0)
            parts.Add(Plural(FailedTargets, "failed target"));
        return string.Join(", ", parts);
    }

    /// <summary><see cref="Describe"/> as a property, so the JSON that carries the counts carries the comment's words
    /// too.</summary>
    public string Text => Describe();

    public static string Plural(int n, string noun) => n == 1 ? $"1 {noun}" : $"{n} {noun}s";
}
