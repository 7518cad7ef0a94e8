using System.Text.Json;
using PerfService.Data.Entities;
using PerfService.Core.Comparison;

namespace PerfService.IntegrationTests.PullRequests;

/// <summary>A project's threshold overrides: the API that stores them, and the verdicts they change.</summary>
public class ThresholdOverrideTests : OwnServiceTests
{
    [Fact]
    public async Task An_override_turns_an_eight_percent_slowdown_from_a_regression_into_no_change_for_its_pattern_only()
    {
        await app.CreateProjectAsync("thr-verdict");
        var agent = await AgentClient.RegisterAsync(app, "thr-agent", "m1-pro");
        static byte[] EightPercentSlower(string role, int round) => Generic.Times(
            ("Rivulet.Streams.ParallelFor", Generic.Around(role == "head" ? 108 : 100, 0.01, 20, seed: round * 10 + (role == "head" ? 1 : 2))),
            ("Other.Thing", Generic.Around(role == "head" ? 1080 : 1000, 0.01, 20, seed: round * 10 + (role == "head" ? 3 : 4))));

        var (_, before) = await PullRequestJobs.RunAsync(app, agent, "thr-verdict", "m1-pro", 1, "abcd0001", "abcd0000", EightPercentSlower, rounds: 2, expectedVerdicts: 2);
        Assert.All(before, v => Assert.Equal(Outcome.Regression, v.Outcome));
        Assert.All(before, v => Assert.Equal(0.05, v.Threshold));

        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        (await admin.PutAsJsonAsync("/api/v1/projects/thr-verdict/thresholds", new
        {
            thresholds = new object[]
            {
                new { pattern = "Rivulet.*Parallel*", threshold = 0.15 },
                new { pattern = "Rivulet.*", measure = "alloc", threshold = 0.01 }, // another measure: does not apply to time
            },
        })).EnsureSuccessStatusCode();

        var (_, after) = await PullRequestJobs.RunAsync(app, agent, "thr-verdict", "m1-pro", 2, "abcd0002", "abcd0000", EightPercentSlower, rounds: 2, expectedVerdicts: 2);
        var overridden = Assert.Single(after, v => v.Key == "Rivulet.Streams.ParallelFor");
        Assert.Equal(Outcome.NoChange, overridden.Outcome);
        Assert.Equal(0.15, overridden.Threshold);
        Assert.InRange(overridden.Change!.Value, 0.06, 0.10);
        var untouched = Assert.Single(after, v => v.Key == "Other.Thing");
        Assert.Equal(Outcome.Regression, untouched.Outcome);
        Assert.Equal(0.05, untouched.Threshold);
    }

    [Fact]
    public async Task The_thresholds_api_round_trips_replaces_validates_and_guards_access()
    {
        await app.CreateProjectAsync("thr-api");
        await app.CreateProjectAsync("thr-private", isPublic: false);
        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        var anonymous = app.CreateClient();
        const string url = "/api/v1/projects/thr-api/thresholds";

        Assert.Empty((await anonymous.GetFromJsonAsync<Thresholds>(url))!.Items);

        var rules = new[] { new Rule("Rivulet.*Parallel*", null, 0.10), new Rule("Json.Parse(Size=10)", "alloc", 0.02), new Rule("*", "time", 9.5) };
        var put = await admin.PutAsJsonAsync(url, new { thresholds = rules });
        Assert.Equal(HttpStatusCode.OK, put.StatusCode);
        Assert.Equal(rules, (await put.Content.ReadFromJsonAsync<Thresholds>())!.Items);
        Assert.Equal(rules, (await anonymous.GetFromJsonAsync<Thresholds>(url))!.Items);

        // PUT replaces the whole list.
        (await admin.PutAsJsonAsync(url, new { thresholds = new[] { rules[1] } })).EnsureSuccessStatusCode();
        Assert.Equal(new[] { rules[1] }, (await anonymous.GetFromJsonAsync<Thresholds>(url))!.Items);

        var invalid = await admin.PutAsJsonAsync(url, new
        {
            thresholds = new object?[]
            {
                new { pattern = "ok.*", threshold = 0.0 },
                new { pattern = "", threshold = 0.1 },
                new { pattern = new string('x', 401), threshold = 0.1 },
                new { pattern = "big", threshold = 10.5 },
                new { pattern = "neg", threshold = -0.1 },
                new { pattern = "missing" },
                new { pattern = "ok.*", measure = new string('m', 201), threshold = 0.1 },
                new { pattern = "dup", measure = "Time", threshold = 0.1 },
                new { pattern = "dup", measure = "time", threshold = 0.2 },
                null,
            },
        });
        Assert.Equal(HttpStatusCode.BadRequest, invalid.StatusCode);
        Assert.Equal("application/problem+json", invalid.Content.Headers.ContentType?.MediaType);
        var errors = JsonDocument.Parse(await invalid.Content.ReadAsStringAsync()).RootElement.GetProperty("errors")
            .EnumerateObject().Select(p => p.Name).Order().ToList();
        Assert.Equal(new[]
        {
            "thresholds[0].threshold", "thresholds[1].pattern", "thresholds[2].pattern", "thresholds[3].threshold", "thresholds[4].threshold",
            "thresholds[5].threshold", "thresholds[6].measure", "thresholds[8]", "thresholds[9]",
        }.Order(), errors);
        var missingList = await admin.PutAsJsonAsync(url, new { });
        Assert.Equal(HttpStatusCode.BadRequest, missingList.StatusCode);
        Assert.Contains("\"thresholds\"", await missingList.Content.ReadAsStringAsync());
        // Nothing was stored by the refused requests.
        Assert.Equal(new[] { rules[1] }, (await anonymous.GetFromJsonAsync<Thresholds>(url))!.Items);

        foreach (var scope in new[] { Scopes.Read, Scopes.Ingest, Scopes.Agent })
        {
            var client = await app.ClientWithScopesAsync(scope);
            Assert.Equal(HttpStatusCode.Forbidden, (await client.PutAsJsonAsync(url, new { thresholds = Array.Empty<Rule>() })).StatusCode);
        }
        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.PutAsJsonAsync(url, new { thresholds = Array.Empty<Rule>() })).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await admin.PutAsJsonAsync("/api/v1/projects/nope/thresholds", new { thresholds = Array.Empty<Rule>() })).StatusCode);

        // A private project's overrides are as hidden as the project.
        Assert.Equal(HttpStatusCode.NotFound, (await anonymous.GetAsync("/api/v1/projects/thr-private/thresholds")).StatusCode);
        var reader = await app.ClientWithScopesAsync(Scopes.Read);
        Assert.Equal(HttpStatusCode.OK, (await reader.GetAsync("/api/v1/projects/thr-private/thresholds")).StatusCode);

        (await admin.PutAsJsonAsync(url, new { thresholds = Array.Empty<Rule>() })).EnsureSuccessStatusCode();
        Assert.Empty((await anonymous.GetFromJsonAsync<Thresholds>(url))!.Items);
    }

    private sealed record Rule(string Pattern, string? Measure, double Threshold);

    private sealed record Thresholds([property: System.Text.Json.Serialization.JsonPropertyName("thresholds")] List<Rule> Items);
}
