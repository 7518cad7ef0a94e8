using PerfService.Core.Reports;
using PerfService.Core.Comparison;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>Small reports for the publish tests.</summary>
public static class Reports
{
    public static PullRequestReport For(string project, int pullRequest, string head, params ReportRow[] rows) => new()
    {
        Project = project, PullRequest = pullRequest, HeadCommit = head, BaseCommit = GitHubFixture.Sha("base"),
        DashboardUrl = $"https://perf.example.com/projects/{project}/pulls/{pullRequest}", Rows = rows,
    };

    public static ReportRow Row(string benchmark, Outcome outcome, double baseValue = 100, double headValue = 125, bool acknowledged = false) => new()
    {
        Benchmark = benchmark, Measure = "time", Unit = "ns", Profile = "ryzen-9950x", Outcome = outcome,
        BaseValue = baseValue, HeadValue = headValue, Change = (headValue - baseValue) / baseValue,
        ChangeCiLower = (headValue - baseValue) / baseValue - 0.02, ChangeCiUpper = (headValue - baseValue) / baseValue + 0.02,
        PValue = 0.001, Acknowledged = acknowledged,
    };

    public static PullRequestReport Regressed(string project, int pullRequest, string head) =>
        For(project, pullRequest, head, Row("Demo.Parse(Size: 100)", Outcome.Regression), Row("Demo.Format", Outcome.NoChange, 50, 50));
}
