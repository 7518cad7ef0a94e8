using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using PerfService.Core.Parsing;

namespace PerfService.IntegrationTests.Dashboard;

/// <summary>Seeds history through the real ingest API from real harness output, with times scaled per commit.</summary>
public static partial class HistorySeed
{
    public const string GoFile = "haxmap-count20-command-line-arguments.txt";
    public const string BdnParams = "newday-bdn0.15.8-params-servergc-report-full.json";
    public static readonly DateTimeOffset Epoch = new(2026, 1, 1, 12, 0, 0, TimeSpan.Zero);

    /// <summary>The go fixture with every ns/op figure multiplied by <paramref name="factor"/>.</summary>
    public static byte[] ScaledGo(double factor)
    {
        var text = Encoding.UTF8.GetString(Fixtures.Read("gobench", GoFile));
        return Encoding.UTF8.GetBytes(NsPerOp().Replace(text, m =>
            (double.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture) * factor).ToString("0.###", CultureInfo.InvariantCulture) + " ns/op"));
    }

    /// <summary>What the parser makes of the scaled file: the values the API must give back.</summary>
    public static ParseResult ParsedGo(double factor) => ResultParsers.Parse([new Artifact(GoFile, ScaledGo(factor))], "gobench");

    /// <summary>A sha-like commit id: "c0de", the commit number in 4 hex digits, then hash digits (so prefixes differ).</summary>
    public static string Sha(int n) =>
        "c0de" + n.ToString("x4", CultureInfo.InvariantCulture) + Convert.ToHexStringLower(SHA1.HashData(BitConverter.GetBytes(n)))[8..];

    public static int CommitNumber(string sha) => int.Parse(sha[4..8], NumberStyles.HexNumber, CultureInfo.InvariantCulture);

    public static async Task<long> UploadAsync(HttpClient ingest, RunMetadata meta, string file, byte[] content)
    {
        var response = await ingest.PostAsync("/api/v1/runs", PerfServiceApp.Upload(meta, (file, content)));
        Assert.True(response.IsSuccessStatusCode, await response.Content.ReadAsStringAsync());
        return (await response.Content.ReadFromJsonAsync<RunCreated>())!.RunId;
    }

    public static Task<long> UploadGoAsync(HttpClient ingest, string project, int commit, string profile = "i7-4790k",
        string branch = "main", double factor = 1, string suite = "maps") =>
        UploadAsync(ingest, Metadata(project, commit, profile, branch, suite, "gobench"), GoFile, ScaledGo(factor));

    public static Task<long> UploadBdnAsync(HttpClient ingest, string project, int commit, string profile = "i7-4790k", string branch = "main") =>
        UploadAsync(ingest, Metadata(project, commit, profile, branch, "newday", "bdn"), BdnParams, Fixtures.Read("benchmarkdotnet", BdnParams));

    /// <summary>Commit n of the seeded history: its made-up SHA, committed n days after the epoch.</summary>
    private static RunMetadata Metadata(string project, int commit, string profile, string branch, string suite, string format) => new()
    {
        Project = project, Commit = Sha(commit), CommittedAt = Epoch.AddDays(commit), Branch = branch, Profile = profile,
        Suite = suite, Format = format,
    };

    [GeneratedRegex(@"(\d+(?:\.\d+)?) ns/op")]
    private static partial Regex NsPerOp();
}
