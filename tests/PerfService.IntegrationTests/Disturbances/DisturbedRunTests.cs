using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Mvc;
using PerfService.Core.Comparison;
using PerfService.IntegrationTests.Ingestion;
using PerfService.IntegrationTests.PullRequests;

namespace PerfService.IntegrationTests.Disturbances;

/// <summary>
/// What an agent measured around a round reaches the service as hostile input like any other field, is stored and shown
/// with the run, and decides which rounds a pull request's verdict and a branch's change points use.
/// </summary>
public class DisturbedRunTests : OwnServiceTests
{
    private const string Benchmark = "Fibers.Spawn";
    private static readonly Disturbance Busy = new(true, 2, 4.2, 2, 0.425, 0.004, 1.3, 3.1);
    private static readonly Disturbance Quiet = new(false, 1, 4.0, 2, 0.01, 0, 0, 0.2);

    private static RunMetadata Meta(string commit, Disturbance? d) =>
        new() { Project = "quiet", Commit = commit, Branch = "main", Profile = "m1-pro", Suite = "fibers", Disturbance = d };

    private static byte[] Results(double level, int seed) => Generic.Times((Benchmark, Generic.Around(level, 0.01, 20, seed)));

    public static TheoryData<string, string> Hostile => new()
    {
        { """{"disturbed":true,"attempts":1,"seconds":1,"suiteCores":2,"otherCpuShare":1.5,"stealShare":0,"otherRunnable":0}""", "disturbance.otherCpuShare" },
        { """{"disturbed":true,"attempts":1,"seconds":1,"suiteCores":2,"otherCpuShare":0.5,"stealShare":-0.1,"otherRunnable":0}""", "disturbance.stealShare" },
        { """{"disturbed":true,"attempts":0,"seconds":1,"suiteCores":2,"otherCpuShare":0.5,"stealShare":0,"otherRunnable":0}""", "disturbance.attempts" },
        { """{"disturbed":true,"attempts":1,"seconds":1,"suiteCores":0,"otherCpuShare":0.5,"stealShare":0,"otherRunnable":0}""", "disturbance.suiteCores" },
        { """{"disturbed":true,"attempts":1,"seconds":1e300,"suiteCores":2,"otherCpuShare":0.5,"stealShare":0,"otherRunnable":0}""", "disturbance.seconds" },
        { """{"disturbed":true,"attempts":1,"seconds":1,"suiteCores":2,"otherCpuShare":0.5,"stealShare":0,"otherRunnable":0,"throttleEvents":-3}""", "disturbance.throttleEvents" },
        { """{"disturbed":true,"attempts":1,"seconds":1,"suiteCores":2,"otherCpuShare":"NaN","stealShare":0,"otherRunnable":0}""", "disturbance.otherCpuShare" },
        { """{"disturbed":true,"attempts":1,"seconds":1,"suiteCores":2,"otherCpuShare":0.5,"stealShare":0,"otherRunnable":0,"loadAverage":"Infinity"}""", "disturbance.loadAverage" },
    };

    [Theory]
    [MemberData(nameof(Hostile))]
    public async Task Hostile_disturbance_is_refused_with_a_400_naming_the_field_and_stores_nothing(string disturbance, string field)
    {
        await app.CreateProjectAsync("quiet");
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        var run = JsonNode.Parse(JsonSerializer.Serialize(Meta("abcdef12", null), JsonSerializerOptions.Web))!.AsObject();
        run["disturbance"] = JsonNode.Parse(disturbance);
        var body = new MultipartFormDataContent
        {
            { new StringContent(run.ToJsonString(), Encoding.UTF8, "application/json"), "run" },
            { new ByteArrayContent(Results(100, 1)), "files", "r.json" },
        };

        var response = await client.PostAsync("/api/v1/runs", body);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var problem = (await response.Content.ReadFromJsonAsync<ProblemDetails>())!;
        Assert.Contains(field, $"{problem.Detail} {(problem.Extensions.TryGetValue("location", out var at) ? at : null)}", StringComparison.OrdinalIgnoreCase);
        Assert.Equal(0, await app.WithDbAsync(db => db.Runs.CountAsync()));

        // The honest measurement beside it is stored and shown with the run.
        var created = await IngestionTests.Post(client, Meta("abcdef13", Busy), null, ("r.json", Results(100, 2)));
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var id = (await created.Content.ReadFromJsonAsync<RunCreated>())!.RunId;
        var shown = JsonDocument.Parse(await app.CreateClient().GetStringAsync($"/api/v1/runs/{id}")).RootElement.GetProperty("run");
        Assert.Equal(Busy, shown.GetProperty("disturbance").Deserialize<Disturbance>(JsonSerializerOptions.Web));
        Assert.Equal("other processes used 85% of a core", shown.GetProperty("disturbedBy").GetString());
    }

    [Fact]
    public async Task A_disturbed_run_stays_out_of_change_points_while_disturbance_is_the_exception_and_counts_when_it_is_the_norm()
    {
        await app.CreateProjectAsync("quiet");
        var client = await app.ClientWithScopesAsync(Scopes.Ingest);
        async Task<bool> LeftOutAsync(string commit, Disturbance d)
        {
            var created = await IngestionTests.Post(client, Meta(commit, d), null, ("r.json", Results(100, commit[^1])));
            var id = (await created.Content.ReadFromJsonAsync<RunCreated>())!.RunId;
            return await app.WithDbAsync(db => db.Runs.Where(r => r.Id == id).Select(r => r.Disturbed).SingleAsync());
        }

        foreach (var commit in new[] { "aa000001", "aa000002", "aa000003" }) Assert.False(await LeftOutAsync(commit, Quiet));
        // Three quiet runs before it: a disturbed one is an outlier, kept out of the series.
        Assert.True(await LeftOutAsync("aa000004", Busy));
        Assert.True(await LeftOutAsync("aa000005", Busy));
        Assert.True(await LeftOutAsync("aa000006", Busy));
        // Now half the recent runs were disturbed: the machine is busy as a rule, and its runs count again.
        Assert.False(await LeftOutAsync("aa000007", Busy));
    }

    // Base and head measure the same code; head's second round met a busy neighbour and read 60% slower.
    private static byte[] SameCodeOneSlowRound(string role, int round) =>
        Results(role == "head" && round == 1 ? 160 : 100, round * 10 + (role == "head" ? 1 : 2));

    private static Disturbance? HeadRoundOneBusy(string role, int round) => role == "head" && round == 1 ? Busy : Quiet;

    /// <summary>Plays pull request 7's job with the given rounds and disturbance; its one verdict and its comment.</summary>
    private async Task<(PullRequestJobs.Judged Verdict, string Comment)> JudgeAsync(int rounds, Func<string, int, Disturbance?>? disturbance)
    {
        await app.CreateProjectAsync("quiet");
        var agent = await AgentClient.RegisterAsync(app, "quiet-agent", "m1-pro");
        var (_, verdicts) = await PullRequestJobs.RunAsync(app, agent, "quiet", "m1-pro", 7, "ff000001", "ee000001", SameCodeOneSlowRound, rounds,
            disturbance: disturbance);
        return (Assert.Single(verdicts), await app.CreateClient().GetStringAsync("/api/v1/projects/quiet/pulls/7/comment"));
    }

    [Fact]
    public async Task A_disturbed_round_is_left_out_of_the_verdict_when_enough_quiet_rounds_remain_and_the_comment_says_so()
    {
        var (v, comment) = await JudgeAsync(3, HeadRoundOneBusy);

        Assert.Equal(Outcome.NoChange, v.Outcome);
        Assert.Equal((60, 40), (v.BaseSamples, v.HeadSamples));
        Assert.Contains("_`m1-pro`: 1 round left out as disturbed (other processes used 85% of a core)._", comment, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_same_slow_round_unmarked_changes_the_verdict()
    {
        var (v, comment) = await JudgeAsync(3, null);

        Assert.NotEqual(Outcome.NoChange, v.Outcome);
        Assert.Equal((60, 60), (v.BaseSamples, v.HeadSamples));
        Assert.DoesNotContain("disturbed", comment, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Too_few_quiet_rounds_keep_the_disturbed_one_and_the_comment_says_so()
    {
        var (v, comment) = await JudgeAsync(2, HeadRoundOneBusy);

        Assert.Equal((40, 40), (v.BaseSamples, v.HeadSamples));
        Assert.Contains("1 of 4 rounds disturbed (other processes used 85% of a core) and kept: fewer than 2 undisturbed rounds a side would remain",
            comment, StringComparison.Ordinal);
    }
}
