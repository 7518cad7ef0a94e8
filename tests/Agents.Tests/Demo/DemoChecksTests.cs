using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using PerfService.Demo;

namespace PerfService.Agents.Tests.Demo;

/// <summary>
/// The change-point check on a busy machine: an alert placed after the planted commit counts only when every commit
/// between its two commits was run and each run was left out as disturbed. The API answers here from a table of
/// runs, as the service's run list and run pages do.
/// </summary>
public class DemoChecksTests
{
    private const string Profile = "m1-pro";
    private static readonly DemoRepository.History History = new(
        [
            .. Enumerable
                .Range(0, 27)
                .Select(i => ($"{i:x2}{new string('a', 38)}", DateTimeOffset.UnixEpoch.AddHours(i))),
        ],
        "final",
        "head"
    );

    [Fact]
    public async Task An_alert_after_the_planted_commit_counts_when_every_run_between_was_left_out_as_disturbed()
    {
        // Planted at index 14 (commit 15); the alert lies between commits 12 and 21, as on a busy machine.
        var runs = Enumerable.Range(12, 8).Select(i => (Commit: i, Profile, Disturbed: true)).ToList();
        var near = await NearAsync(Alert(11, 20), runs);
        var only = Assert.Single(near);
        Assert.Equal(Profile, only.Profile);
        Assert.Contains("at commit 21", only.Text);
        Assert.Contains("all 8 runs of commits 13–20 were left out as disturbed", only.Text);
    }

    [Fact]
    public async Task An_alert_after_the_planted_commit_does_not_count_when_a_run_between_was_kept_or_a_commit_not_run()
    {
        var kept = Enumerable.Range(12, 8).Select(i => (Commit: i, Profile, Disturbed: i != 16)).ToList();
        Assert.Empty(await NearAsync(Alert(11, 20), kept));
        var missing = Enumerable
            .Range(12, 8)
            .Where(i => i != 17)
            .Select(i => (Commit: i, Profile, Disturbed: true))
            .ToList();
        Assert.Empty(await NearAsync(Alert(11, 20), missing));
        // Another profile's disturbed runs say nothing about this one.
        var elsewhere = Enumerable.Range(12, 8).Select(i => (Commit: i, Profile: "i7-4790k", Disturbed: true)).ToList();
        Assert.Empty(await NearAsync(Alert(11, 20), elsewhere));
    }

    [Fact]
    public async Task An_alert_whose_range_does_not_hold_the_planted_commit_never_counts()
    {
        var runs = Enumerable.Range(0, 27).Select(i => (Commit: i, Profile, Disturbed: true)).ToList();
        Assert.Empty(await NearAsync(Alert(15, 20), runs));
        Assert.Empty(await NearAsync(Alert(5, 13), runs));
    }

    [Fact]
    public void The_check_says_how_late_each_alert_was_and_which_profile_first_heard_of_it_after_more_than_three()
    {
        static JsonNode? Found(string profile, int? after) =>
            new JsonObject { ["profile"] = profile, ["foundAfter"] = after };
        Assert.Equal(
            ", found 2–5 results later (the first on each profile within 3)",
            DemoChecks.Late([Found("m1-pro", 5), Found("m1-pro", 3), Found("ryzen-9950x", 3), Found("i7-4790k", 2)])
        );
        Assert.Equal(
            ", found 2–7 results later (the first on m1-pro 5, ryzen-9950x 6)",
            DemoChecks.Late([Found("ryzen-9950x", 6), Found("m1-pro", 5), Found("i7-4790k", 2), Found("i7-4790k", 7)])
        );
        // An alert from before the API said how late it was counts for nothing.
        Assert.Equal(
            ", found 1 result later (the first on each profile within 3)",
            DemoChecks.Late([Found("m1-pro", 1), Found("i7-4790k", null)])
        );
        Assert.Equal("", DemoChecks.Late([Found("m1-pro", null)]));
    }

    private static JsonNode Alert(int from, int to) =>
        new JsonObject
        {
            ["profile"] = Profile,
            ["fromCommit"] = History.Main[from].Sha,
            ["toCommit"] = History.Main[to].Sha,
        };

    private static async Task<List<DemoChecks.NearAlert>> NearAsync(
        JsonNode alert,
        List<(int Commit, string Profile, bool Disturbed)> runs
    )
    {
        var http = new HttpClient(new Answers(runs)) { BaseAddress = new Uri("http://demo.test/") };
        var scenario = new DemoScenario(Full: true, DemoPlanner.Plan(full: true, [new("20ms", 0.01, 0.01)]));
        var checks = new DemoChecks(new DemoApi(http), scenario, History, TextWriter.Null);
        return await checks.AsNearAsKeptAsync([alert], CancellationToken.None);
    }

    /// <summary>The run list (newest first) and each run's page, from the table.</summary>
    private sealed class Answers(List<(int Commit, string Profile, bool Disturbed)> runs) : HttpMessageHandler
    {
        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken ct)
        {
            var path = request.RequestUri!.PathAndQuery;
            JsonNode body;
            if (path == $"/api/v1/projects/{DemoScenario.Project}/runs?limit=1000")
                body = new JsonObject
                {
                    ["items"] = new JsonArray([
                        .. runs.Select(
                                (r, i) =>
                                    (JsonNode)
                                        new JsonObject
                                        {
                                            ["id"] = i + 1,
                                            ["commit"] = History.Main[r.Commit].Sha,
                                            ["branch"] = "main",
                                            ["profile"] = r.Profile,
                                            ["suite"] = "eventstore",
                                        }
                            )
                            .Reverse(),
                    ]),
                };
            else if (path.StartsWith("/api/v1/runs/", StringComparison.Ordinal))
                body = new JsonObject
                {
                    ["run"] = new JsonObject
                    {
                        ["leftOutAsDisturbed"] = runs[int.Parse(path["/api/v1/runs/".Length..]) - 1].Disturbed,
                    },
                };
            else
                return Task.FromResult(new HttpResponseMessage(HttpStatusCode.NotFound) { RequestMessage = request });
            return Task.FromResult(
                new HttpResponseMessage(HttpStatusCode.OK)
                {
                    Content = new StringContent(body.ToJsonString(), Encoding.UTF8, "application/json"),
                    RequestMessage = request,
                }
            );
        }
    }
}
