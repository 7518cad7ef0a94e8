using PerfService.Agents;
using PerfService.Agents.Client;
using PerfService.Agents.Machine;
using PerfService.Agents.Worker;
using PerfService.Core.Contracts;
using PerfService.IntegrationTests.Infrastructure;

namespace PerfService.EndToEndTests;

/// <summary>
/// The real agent (the agent's own code, talking to the test host over its HTTP API) taking one job, as the agent
/// process does with --once. An agent name belongs to the token that registered it: reuse the token to be the same
/// agent again.
/// </summary>
internal static class InProcessAgent
{
    /// <param name="limit">--once waits until it gets a job: a bound makes a job that never becomes claimable fail
    /// the test instead of hanging it.</param>
    /// <param name="network">What stands between the agent and the service (a handler around the test host's).</param>
    public static async Task RunOnceAsync(PerfServiceApp app, string token, string profile, string name, string workDir, TimeSpan? limit = null,
        Func<HttpMessageHandler, HttpMessageHandler>? network = null, TimeSpan? uploadRetry = null)
    {
        var options = new AgentOptions
        {
            Server = "http://localhost", Token = token, Profile = profile, WorkDir = workDir, Name = name,
            Once = true, WaitSeconds = 5, HeartbeatInterval = TimeSpan.FromMilliseconds(500), UploadRetry = uploadRetry ?? TimeSpan.FromSeconds(30),
        };
        var machine = new MachineInfo("Test host", 2, 2, 1L << 30, "Linux", "6.1", new Dictionary<string, string>());
        var identity = new AgentIdentity(options.Name, profile, machine, "x64", "simulated on a test host");
        var handler = app.Server.CreateHandler();
        var http = PerfServiceClient.CreateHttpClient("http://localhost", token, network?.Invoke(handler) ?? handler);
        using var cancel = limit is { } l ? new CancellationTokenSource(l) : new CancellationTokenSource();
        Assert.Equal(0, await AgentFactory.Create(options, identity, AgentConsole.Silent, TimeProvider.System, http).RunAsync(cancel.Token));
    }
}
