using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Mvc;
using PerfService.IntegrationTests.Ingestion;

namespace PerfService.IntegrationTests.Security;

/// <summary>
/// NUL characters (U+0000), which PostgreSQL's text cannot hold, in query strings and uploads: a 400 that names the
/// field, not a 500 with 22021, beside the same request without the NUL answering as before.
/// </summary>
public class NulCharacterTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private const string Project = "nul-project";

    private static RunMetadata Meta() => new() { Project = Project, Commit = "abcd1234", Profile = "m1-pro", Branch = "main" };

    private static byte[] Result(string benchmark = "Parse", string unit = "ns", string parameter = "small") => Encoding.UTF8.GetBytes(JsonSerializer.Serialize(new
    {
        results = new[] { new { benchmark, parameters = new Dictionary<string, string> { ["size"] = parameter }, unit, value = 12.5 } },
    }));

    private async Task EnsureProjectAsync()
    {
        if (!await app.WithDbAsync(db => db.Projects.AnyAsync(p => p.Slug == Project))) await app.CreateProjectAsync(Project);
    }

    [Theory]
    [InlineData($"/api/v1/projects/{Project}/benchmarks?q=", "'q'")]
    [InlineData("/api/v1/jobs?project=", "'project'")]
    [InlineData($"/api/v1/projects/{Project}/compare?base=abcd1234&head=abcd1234&profile=", "'profile'")]
    public async Task A_NUL_in_a_query_string_is_a_400_that_names_the_parameter(string url, string names)
    {
        await EnsureProjectAsync();
        var anonymous = app.CreateClient();
        var refused = await anonymous.GetAsync(url + "%00");
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        var problem = (await refused.Content.ReadFromJsonAsync<ProblemDetails>())!;
        Assert.Contains(names, problem.Detail);
        Assert.Contains("NUL", problem.Detail);
        // The same request with ordinary text is answered.
        Assert.True((await anonymous.GetAsync(url + "m1-pro")).StatusCode is HttpStatusCode.OK or HttpStatusCode.NotFound);
    }

    public static TheoryData<string, string> Uploads => new()
    {
        { "benchmark", "its name" },
        { "parameter", "its parameter" },
        { "unit", "its unit" },
        { "agent", "run.agent" },
        { "environment", "run.environment" },
        { "commitMessage", "run.commitMessage" },
    };

    [Theory]
    [MemberData(nameof(Uploads))]
    public async Task A_NUL_in_an_upload_is_a_400_that_names_the_field_and_stores_nothing(string field, string names)
    {
        await EnsureProjectAsync();
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        var meta = field switch
        {
            "agent" => Meta() with { Agent = "ci\0runner" },
            "environment" => Meta() with { Environment = new Dictionary<string, string> { ["runner"] = "ci\0" } },
            "commitMessage" => Meta() with { CommitMessage = "fix\0" },
            _ => Meta(),
        };
        var file = field switch
        {
            "benchmark" => Result(benchmark: "Parse\0"),
            "parameter" => Result(parameter: "sm\0all"),
            "unit" => Result(unit: "n\0s"),
            _ => Result(),
        };
        var runs = await app.WithDbAsync(db => db.Runs.CountAsync());
        var refused = await IngestionTests.Post(ingest, meta, null, ("generic.json", file));
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        var problem = (await refused.Content.ReadFromJsonAsync<ProblemDetails>())!;
        Assert.Contains(names, problem.Detail);
        Assert.Contains("NUL", problem.Detail);
        Assert.Equal(runs, await app.WithDbAsync(db => db.Runs.CountAsync()));

        Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, Meta(), null, ("generic.json", Result()))).StatusCode);
    }

    [Fact]
    public async Task A_NUL_in_an_agents_name_or_machine_is_a_400_that_names_it()
    {
        var agent = await app.ClientWithScopesAsync(Scopes.Agent);
        var machine = new MachineInfo("Test CPU", 2, 2, 1L << 30, "Linux", "6.1", new Dictionary<string, string>());
        foreach (var (request, names) in new[]
        {
            (new RegisterAgentRequest("nul\0agent", "m1-pro", machine), "name"),
            (new RegisterAgentRequest("nul-agent", "m1-pro", machine with { Kernel = "6.1\0" }), "machine.kernel"),
        })
        {
            var refused = await agent.PostAsJsonAsync("/api/v1/agents/register", request);
            Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
            Assert.Contains(names, (await refused.Content.ReadFromJsonAsync<ProblemDetails>())!.Detail);
        }
        Assert.Equal(HttpStatusCode.OK, (await agent.PostAsJsonAsync("/api/v1/agents/register", new RegisterAgentRequest("nul-agent", "m1-pro", machine))).StatusCode);
    }
}
