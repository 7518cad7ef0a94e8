using System.Globalization;

namespace PerfService.SeedHistory;

/// <summary>What to seed. The commit count follows from the others: results / (benchmarks × profiles), one run per
/// commit and profile, one result per benchmark (measure "time").</summary>
public sealed record SeedOptions
{
    public required string Connection { get; init; }
    public long Results { get; init; } = 50_000_000;
    public int Benchmarks { get; init; } = 2_000;
    public int Profiles { get; init; } = 3;
    /// <summary>Samples kept per result (0: only the summary, as after sample retention).</summary>
    public int Samples { get; init; } = 20;
    /// <summary>Time between two commits: 4 h makes 8,334 commits span 3.8 years.</summary>
    public double CommitHours { get; init; } = 4;
    public string Project { get; init; } = "history";

    public long Commits => (Results + (long)Benchmarks * Profiles - 1) / ((long)Benchmarks * Profiles);

    public const string Usage = """
        usage: PerfService.SeedHistory --connection CONNECTION [--results 50000000] [--benchmarks 2000] [--profiles 3]
                                       [--samples 20] [--commit-hours 4] [--project history]
        Seeds one project's history into an empty database (migrated first): --results results in all, one run per commit
        and profile. Use a database of its own: the load drops and rebuilds the results indexes.
        """;

    public static SeedOptions? Parse(string[] args)
    {
        string? Value(string name) => args.SkipWhile(a => a != name).Skip(1).FirstOrDefault();
        var connection = Value("--connection") ?? Environment.GetEnvironmentVariable("PERF_DB");
        if (string.IsNullOrEmpty(connection) || args.Contains("--help")) return null;
        var o = new SeedOptions { Connection = connection };
        if (Value("--results") is { } r) o = o with { Results = long.Parse(r.Replace("_", ""), CultureInfo.InvariantCulture) };
        if (Value("--benchmarks") is { } b) o = o with { Benchmarks = int.Parse(b, CultureInfo.InvariantCulture) };
        if (Value("--profiles") is { } p) o = o with { Profiles = int.Parse(p, CultureInfo.InvariantCulture) };
        if (Value("--samples") is { } s) o = o with { Samples = int.Parse(s, CultureInfo.InvariantCulture) };
        if (Value("--commit-hours") is { } h) o = o with { CommitHours = double.Parse(h, CultureInfo.InvariantCulture) };
        if (Value("--project") is { } slug) o = o with { Project = slug };
        return o.Results > 0 && o.Benchmarks > 0 && o.Profiles > 0 && o.Samples >= 0 ? o : null;
    }
}
