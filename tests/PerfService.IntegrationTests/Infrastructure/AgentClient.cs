using PerfService.AgentJobs;

namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>Speaks the agent API the way the agent process does, for queue tests.</summary>
public sealed class AgentClient(HttpClient http, long agentId)
{
    public long Id { get; } = agentId;
    public HttpClient Http { get; } = http;

    public static async Task<AgentClient> RegisterAsync(PerfServiceApp app, string name, string profile, HttpClient? http = null)
    {
        http ??= await app.ClientWithScopesAsync("agent");
        var machine = new MachineInfo("Test CPU", 2, 2, 1L << 30, "Linux", "6.1", new Dictionary<string, string>());
        var response = await http.PostAsJsonAsync("/api/v1/agents/register", new RegisterAgentRequest(name, profile, machine));
        response.EnsureSuccessStatusCode();
        var registered = (await response.Content.ReadFromJsonAsync<RegisterAgentResponse>())!;
        return new AgentClient(http, registered.AgentId);
    }

    /// <summary>Queues jobs as an administrator would (POST /api/v1/jobs), one per profile.</summary>
    public static async Task<List<JobDto>> EnqueueAsync(PerfServiceApp app, object request)
    {
        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        var response = await admin.PostAsJsonAsync("/api/v1/jobs", request);
        Assert.True(response.IsSuccessStatusCode, await response.Content.ReadAsStringAsync());
        return (await response.Content.ReadFromJsonAsync<List<JobDto>>())!;
    }

    public async Task<JobAssignment?> ClaimAsync(int waitSeconds = 0)
    {
        var response = await Http.PostAsync($"/api/v1/agents/{Id}/claim?waitSeconds={waitSeconds}", null);
        response.EnsureSuccessStatusCode();
        return response.StatusCode == HttpStatusCode.NoContent ? null : await response.Content.ReadFromJsonAsync<JobAssignment>();
    }

    public Task<HttpResponseMessage> HeartbeatAsync(long jobId, string? progress = null) =>
        Http.PostAsJsonAsync($"/api/v1/jobs/{jobId}/heartbeat", new HeartbeatRequest(Id, progress, ["working"]));

    public Task<HttpResponseMessage> CompleteAsync(long jobId, bool succeeded = true, string? error = null) =>
        Http.PostAsJsonAsync($"/api/v1/jobs/{jobId}/complete", new CompleteJobRequest(Id, succeeded, error, ["done"]));
}
