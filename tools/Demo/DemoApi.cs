using System.Net.Http.Json;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace PerfService.Demo;

/// <summary>The few service calls the demo makes, as a webhook or a user would.</summary>
public sealed class DemoApi(HttpClient http)
{
    /// <remarks>
    /// The demo's three agents simulate their profiles on this one host, so every run they post is flagged as a profile
    /// mismatch; the project opts in to such runs, or its baselines and change-point series would stay empty.
    /// </remarks>
    public async Task CreateProjectAsync(string slug, string repositoryUrl, int roundBudget, CancellationToken ct)
    {
        var response = await http.PostAsJsonAsync("api/v1/projects",
            new { slug, name = "PerfService demo", repositoryUrl, defaultBranch = "main", includeProfileMismatch = true, roundBudget }, ct);
        if (response.StatusCode != System.Net.HttpStatusCode.Conflict) await Ensure(response, ct);
    }

    public async Task SetRoundBudgetAsync(string slug, int roundBudget, CancellationToken ct) =>
        await Ensure(await http.PatchAsJsonAsync($"api/v1/projects/{slug}", new { roundBudget }, ct), ct);

    public async Task QueueAsync(object job, CancellationToken ct) => await Ensure(await http.PostAsJsonAsync("api/v1/jobs", job, ct), ct);

    public async Task<JsonArray> GetArrayAsync(string path, CancellationToken ct)
    {
        var node = await GetAsync(path, ct);
        return node as JsonArray ?? node?["items"] as JsonArray ?? [];
    }

    public async Task<JsonNode?> GetAsync(string path, CancellationToken ct)
    {
        var response = await http.GetAsync(path, ct);
        await Ensure(response, ct);
        // A differential profile's tree nests two levels a frame, deeper than JSON's default 64 for a .NET stack.
        return JsonNode.Parse(await response.Content.ReadAsStringAsync(ct), documentOptions: new JsonDocumentOptions { MaxDepth = 4096 });
    }

    private static async Task Ensure(HttpResponseMessage response, CancellationToken ct)
    {
        if (!response.IsSuccessStatusCode)
            throw new InvalidOperationException($"{response.RequestMessage?.Method} {response.RequestMessage?.RequestUri} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync(ct)}");
    }
}
