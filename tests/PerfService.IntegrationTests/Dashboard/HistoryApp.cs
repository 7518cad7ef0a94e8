using PerfService.Core.Results;
using PerfService.Dashboard;
using PerfService.Hosting.Http;

namespace PerfService.IntegrationTests.Dashboard;

/// <summary>
/// A service with one public project of history: the go fixture on two profiles and two branches (uploaded out of
/// commit order), and a BenchmarkDotNet run with parameters and confidence intervals.
/// </summary>
public class HistoryApp : PerfServiceApp
{
    public const string Project = "hist";

    /// <summary>Commit number → factor of the go times on i7-4790k, main.</summary>
    public static readonly IReadOnlyDictionary<int, double> MainI7 = new Dictionary<int, double> { [1] = 1.0, [2] = 1.1, [3] = 0.9, [4] = 1.5, [5] = 1.2 };
    public static readonly IReadOnlyDictionary<int, double> MainRyzen = new Dictionary<int, double> { [2] = 2.0, [4] = 2.2 };

    public Dictionary<(int Commit, string Profile), long> Runs { get; } = [];
    public long FeatureRun { get; private set; }
    public long BdnRun { get; private set; }

    public override async Task InitializeAsync()
    {
        await base.InitializeAsync();
        await CreateProjectAsync(Project);
        var ingest = await ClientWithScopesAsync(Scopes.Ingest);
        foreach (var commit in new[] { 3, 1, 5, 2, 4 })
            Runs[(commit, "i7-4790k")] = await HistorySeed.UploadGoAsync(ingest, Project, commit, factor: MainI7[commit]);
        foreach (var (commit, factor) in MainRyzen)
            Runs[(commit, "ryzen-9950x")] = await HistorySeed.UploadGoAsync(ingest, Project, commit, "ryzen-9950x", factor: factor);
        FeatureRun = await HistorySeed.UploadGoAsync(ingest, Project, 6, branch: "feature", factor: 3.0);
        BdnRun = await HistorySeed.UploadBdnAsync(ingest, Project, 1);
    }

    /// <summary>The go fixture's haxmap read benchmark as the parser sees it (time measure) at a factor.</summary>
    public static BenchmarkResult HaxReads(double factor) =>
        HistorySeed.ParsedGo(factor).Results.Single(r => r.Name.EndsWith("HaxMapReadsOnly", StringComparison.Ordinal) && r.Measure == Measures.Time);

    public async Task<BenchmarkItemDto> BenchmarkAsync(string key, HttpClient? client = null)
    {
        var page = await (client ?? CreateClient()).GetFromJsonAsync<Page<BenchmarkItemDto>>(
            $"/api/v1/projects/{Project}/benchmarks?q={Uri.EscapeDataString(key)}&limit=1000");
        return Assert.Single(page!.Items, b => b.Key == key);
    }
}
