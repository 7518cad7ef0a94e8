using PerfService.Core.Reports;
using PerfService.Core.Comparison;
using PerfService.Core.Targets;

namespace PerfService.Tests.Reports;

/// <summary>Reports as the service assembles them, for the renderer and status tests.</summary>
public static class SampleReports
{
    public const string Head = "3f9a1c2e7b4d5a6c8e9f0a1b2c3d4e5f6a7b8c9d";
    public const string Base = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d";
    public const string Dashboard = "https://perf.example.com/projects/demo/pulls/42";

    public static ReportRow Row(string benchmark, Outcome outcome, double? baseValue, double? headValue, string unit = "ns",
        string measure = "time", string profile = "ryzen-9950x", double? p = 0.0004, string? reason = null, bool acknowledged = false,
        double threshold = 0.05)
    {
        var change = baseValue is { } b && headValue is { } h && b != 0 ? (h - b) / b : (double?)null;
        return new ReportRow
        {
            Benchmark = benchmark, Measure = measure, Unit = unit, Profile = profile, Outcome = outcome,
            BaseValue = baseValue, HeadValue = headValue, Change = change,
            ChangeCiLower = change - 0.02, ChangeCiUpper = change + 0.03, PValue = p, Reason = reason, Acknowledged = acknowledged,
            NoChangeMargin = 0.05, Threshold = threshold,
        };
    }

    public static PullRequestReport Typical() => new()
    {
        Project = "demo", PullRequest = 42, HeadCommit = Head, BaseCommit = Base, DashboardUrl = Dashboard,
        Rows =
        [
            Row("Demo.Json.Parse(Size: 1000)", Outcome.Regression, 1234.5, 1480.2),
            Row("Demo.Json.Parse(Size: 10)", Outcome.Regression, 512, 640, unit: "B", measure: "alloc", acknowledged: true),
            Row("Demo.Hashing.Sha256(Length: 1048576)", Outcome.Improvement, 2_512_000, 2_104_000, p: 0.012),
            Row("Demo.Json.Serialize(Size: 1000)", Outcome.NoChange, 880.4, 884.1, p: 0.41, reason: "below the 5% threshold"),
            Row("Demo.Json.Serialize(Size: 10)", Outcome.NoChange, 95.21, 95.02, p: 0.77),
            Row("Demo.Collections.Sort(N: 100000)", Outcome.Inconclusive, 4.2e6, 4.6e6, p: 0.09, threshold: 0.28,
                reason: "+9.5% CI [+7.5%, +12.5%] (bimodal samples): the series is too noisy to judge a change of ±5.0%: run-to-run noise ±14% on the base branch, so only a change beyond ±28% counts"),
            Row("Demo.Collections.Sort(N: 100000)", Outcome.NoChange, 3, 3, unit: "count", measure: "gen0", p: null),
        ],
        Targets =
        [
            new ReportTarget { Name = "Json.Parse p99", Profile = "ryzen-9950x", State = TargetStatus.Fail, Detail = "1.62 µs against < 1.5 µs" },
            new ReportTarget { Name = "Sha256 throughput", Profile = "ryzen-9950x", State = TargetStatus.Pass, Detail = "418 MB/s against > 300 MB/s" },
        ],
    };

    /// <summary>A job whose base failed for two benchmarks: those were compared with the base branch's history.</summary>
    public static PullRequestReport HistoryBaseline() => new()
    {
        Project = "demo", PullRequest = 44, HeadCommit = Head, BaseCommit = Base, DashboardUrl = Dashboard,
        Rows =
        [
            Row("Demo.Json.Parse(Size: 1000)", Outcome.Regression, 1234.5, 1480.2) with { BaselineFromHistory = true },
            Row("Demo.Json.Serialize(Size: 1000)", Outcome.NoChange, 880.4, 884.1, p: 0.41,
                reason: "no significant change (p=0.41), +0.4% within ±5%; baseline from main history: 5 runs at or before 1a2b3c4d5e") with { BaselineFromHistory = true },
            Row("Demo.Hashing.Sha256(Length: 1048576)", Outcome.Improvement, 2_512_000, 2_104_000, p: 0.012),
        ],
    };

    public static PullRequestReport Empty() => new()
    {
        Project = "demo", PullRequest = 7, HeadCommit = Head, BaseCommit = Base,
        PendingProfiles = ["ryzen-9950x", "m1-pro"],
    };

    public static PullRequestReport MixedProfiles() => new()
    {
        Project = "demo", PullRequest = 43, HeadCommit = Head, BaseCommit = Base, DashboardUrl = Dashboard,
        PendingProfiles = ["i7-4790k"],
        Rows =
        [
            Row("Demo.Json.Parse(Size: 1000)", Outcome.Regression, 1234.5, 1480.2),
            Row("Demo.Json.Parse(Size: 1000)", Outcome.NoChange, 2010, 2032, profile: "m1-pro", p: 0.3),
            Row("Demo.Hashing.Sha256(Length: 1048576)", Outcome.Improvement, 3.1e6, 2.4e6, profile: "m1-pro"),
            Row("Demo.Hashing.Sha256(Length: 1048576)", Outcome.Improvement, 2.5e6, 2.1e6),
            Row("Demo.Io.ReadFile", Outcome.Regression, 1.5e9, 1.8e9, profile: "m1-pro"),
            Row("Demo.Io.ReadFile", Outcome.NoChange, 3.2 * 1024 * 1024, 3.2 * 1024 * 1024, unit: "B", measure: "alloc", profile: "m1-pro", p: 1),
        ],
        Targets = [new ReportTarget { Name = "ReadFile under 2 s", Profile = "m1-pro", State = TargetStatus.NotMeasured }],
    };

    /// <summary>Thousands of rows: 50 regressions, 30 improvements, 5 failed targets and the rest unchanged.</summary>
    public static PullRequestReport Huge(int rows = 5_000)
    {
        var list = new List<ReportRow>(rows);
        for (var i = 0; i < rows; i++)
        {
            var name = $"Demo.Generated.Benchmark{i:0000}(Size: {i % 7 * 1000}, Mode: \"Fast\")";
            var profile = i % 2 == 0 ? "ryzen-9950x" : "m1-pro";
            list.Add(i switch
            {
                < 50 => Row(name, Outcome.Regression, 1000, 1100 + i * 10, profile: profile),
                < 80 => Row(name, Outcome.Improvement, 1000, 900 - i, profile: profile),
                _ => Row(name, Outcome.NoChange, 1000 + i, 1001 + i, profile: profile, p: 0.5),
            });
        }
        return new PullRequestReport
        {
            Project = "demo", PullRequest = 44, HeadCommit = Head, BaseCommit = Base, DashboardUrl = Dashboard, Rows = list,
            Targets = [.. Enumerable.Range(0, 5).Select(i => new ReportTarget
            {
                Name = $"Target {i}", Profile = "ryzen-9950x", State = TargetStatus.Fail, Detail = $"{1.5 + i / 10.0} µs against < 1.5 µs",
            })],
        };
    }

    public const string Explorer = "https://perf.example.com/explorer.html?project=demo";

    /// <summary>Thirty points of main's history ending at base, drifting slightly, as the service reads them.</summary>
    public static IReadOnlyList<HistoryPoint> History(double level, int points = 30) =>
        [.. Enumerable.Range(0, points).Select(i => new HistoryPoint(
            $"{i:x2}{Base[2..]}", new DateTimeOffset(2026, 10, 1, 12, 0, 0, TimeSpan.Zero).AddDays(i), Math.Round(level * (1 + (i % 5 - 2) * 0.004), 2)))];

    /// <summary>Typical, with the explorer links and the base branch's history of its regressions.</summary>
    public static PullRequestReport WithHistory() => Typical() with
    {
        HistoryBranch = "main",
        Rows = [.. Typical().Rows.Select((r, i) => r with
        {
            ExplorerUrl = $"{Explorer}&b={100 + i}&measure={r.Measure}&profile={r.Profile}&base={Base[..10]}&head={Head[..10]}",
            History = r.Outcome == Outcome.Regression ? History(r.BaseValue!.Value, points: 12) : [],
        })],
    };

    /// <summary>Huge, with every row linked and every regression carrying 30 points of history.</summary>
    public static PullRequestReport HugeWithHistory(int rows) => Huge(rows) with
    {
        HistoryBranch = "main",
        Rows = [.. Huge(rows).Rows.Select((r, i) => r with
        {
            ExplorerUrl = $"{Explorer}&b={i}&measure={r.Measure}&profile={r.Profile}&base={Base[..10]}&head={Head[..10]}",
            History = r.Outcome == Outcome.Regression ? History(r.BaseValue!.Value) : [],
        })],
    };

    public static PullRequestReport Hostile() => new()
    {
        Project = "demo", PullRequest = 45, HeadCommit = Head, BaseCommit = Base, DashboardUrl = "https://perf.example.com/x (y)",
        Rows =
        [
            Row("<script>alert(1)</script>", Outcome.Regression, 10, 20),
            Row("a|b|c\n| injected | row |", Outcome.Regression, 10, 15),
            Row("`rm -rf /` **bold** _it_ ~~gone~~ $x$", Outcome.Improvement, 10, 5),
            Row("@octocat @org/team please look", Outcome.NoChange, 10, 10, reason: "<img src=x onerror=alert(1)>"),
            Row("<!-- perfservice:project=demo -->", Outcome.NoChange, 10, 10),
            Row("[click](javascript:alert(1)) ![img](https://evil.example/x.png)", Outcome.Inconclusive, 10, 11),
            Row("\u202Egnp.exe\u202C name\\with\\backslashes &amp; entities", Outcome.NoChange, 1, 1, unit: "ops</td>"),
            Row(new string('x', 1000), Outcome.NoChange, 1, 1, profile: "<b>profile</b>"),
        ],
        Targets = [new ReportTarget { Name = "<details open>", Profile = "ryzen-9950x", State = TargetStatus.Fail, Detail = "| x | y |" }],
    };
}
