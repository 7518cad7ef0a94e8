using PerfService.Agents.Client;
using PerfService.Agents.Jobs;
using PerfService.Agents.Machine;
using PerfService.Agents.Processes;
using PerfService.Agents.Profiling;
using PerfService.Agents.Spool;
using PerfService.Agents.Suites;

namespace PerfService.Agents.Worker;

/// <summary>Wires the agent's parts together (the CLI and the end-to-end tests build it the same way).</summary>
public static class AgentFactory
{
    public static AgentDriver Create(
        AgentOptions options,
        AgentIdentity identity,
        AgentConsole console,
        TimeProvider clock,
        HttpClient http,
        SuiteRunners? profilers = null
    )
    {
        var processes = new ProcessRunner();
        var client = new PerfServiceClient(http);
        var spool = new RunSpool(options.SpoolDir, clock);
        var delivery = new RunDelivery(spool, client, clock);
        var runner = new JobRunner(
            options,
            new GitWorkspace(processes, options.WorkDir),
            SuiteRunners.CreateDefault(processes),
            spool,
            delivery,
            clock,
            processes,
            profilers ?? ProfileRunners.CreateDefault(processes)
        );
        var supervisor = new JobSupervisor(client, runner, options.HeartbeatInterval);
        return new AgentDriver(options, identity, client, delivery, supervisor, console, clock);
    }

    /// <summary>One long-lived client; connections are recycled so a moved service (DNS) is found again.</summary>
    public static HttpClient CreateHttpClient(AgentOptions options) =>
        PerfServiceClient.CreateHttpClient(
            options.Server,
            options.Token,
            new SocketsHttpHandler
            {
                PooledConnectionLifetime = TimeSpan.FromMinutes(5),
                ConnectTimeout = TimeSpan.FromSeconds(15),
            }
        );
}
