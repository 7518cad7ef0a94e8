using System.Net;
using System.Net.Http.Json;
using System.Text.Json;

namespace PerfService.FaultTests.Infrastructure;

/// <summary>
/// Everything an agent test needs, made fresh per test: a database, the service as a process, a local repository
/// with a held `json` suite, a project pointing at it, tokens, and the agents it starts (killed on dispose).
/// </summary>
public sealed class AgentWorld : IAsyncDisposable
{
    public const string Project = "agents";

    private readonly List<ChildProcess> _agents = [];

    private AgentWorld(Scratch scratch, TestDatabase db, ServiceProcess service, LocalRepo repo)
    {
        Scratch = scratch;
        Db = db;
        Service = service;
        Repo = repo;
    }

    public Scratch Scratch { get; }
    public TestDatabase Db { get; }
    public ServiceProcess Service { get; }
    public LocalRepo Repo { get; }
    public string AgentToken { get; private set; } = "";
    public HttpClient Admin { get; private set; } = null!;

    public static async Task<AgentWorld> StartAsync(string label, IReadOnlyDictionary<string, string?>? settings = null, int commits = 1)
    {
        var scratch = new Scratch(label);
        var db = await TestDatabase.CreateAsync();
        var service = new ServiceProcess(db.ConnectionString, scratch.Root, settings);
        var world = new AgentWorld(scratch, db, service, LocalRepo.Create(scratch.Path("repo"), scratch.Path("control"), commits));
        await service.StartAsync();
        world.Admin = service.Client(await db.CreateTokenAsync("admin", "admin"));
        world.AgentToken = await db.CreateTokenAsync("lab-agents", "agent");
        await Uploads.CreateProjectAsync(world.Admin, Project, world.Repo.Path);
        return world;
    }

    public ChildProcess StartAgent(string name, bool once = false, string? workDir = null)
    {
        var agent = AgentProcess.Start(Service, AgentToken, name, workDir ?? WorkDir(name), Repo.Control, once, Scratch.Root);
        _agents.Add(agent);
        return agent;
    }

    public string WorkDir(string agent) => Scratch.Path("agents", agent);

    public async Task<long> EnqueueAsync(string commit)
    {
        var response = await Admin.PostAsJsonAsync("api/v1/jobs", new { project = Project, commit, profiles = new[] { AgentProcess.Profile } });
        var body = await response.Content.ReadAsStringAsync();
        if (response.StatusCode != HttpStatusCode.Created) throw new InvalidOperationException($"enqueue: {(int)response.StatusCode} {body}");
        using var json = JsonDocument.Parse(body);
        return json.RootElement.EnumerateArray().Single().GetProperty("id").GetInt64();
    }

    public async Task<JobRow> JobAsync(long id) => (await Db.QueryAsync(
        "SELECT state, attempts, coalesce(reason, ''), log, agent_id FROM jobs WHERE id = $1",
        r => new JobRow(id, r.GetString(0), r.GetInt32(1), r.GetString(2), r.GetString(3), r.IsDBNull(4) ? null : r.GetInt64(4)), id)).Single();

    public Task<JobRow> WaitForJobAsync(long id, Func<JobRow, bool> done, TimeSpan timeout) =>
        Eventually.WaitAsync(() => JobAsync(id), done, timeout, 250);

    public Task<List<StoredRun>> RunsOfJobAsync(long id) =>
        Db.QueryAsync("""
            SELECT r.id, r.idempotency_key, r.job_id, (SELECT count(*) FROM results x WHERE x.run_id = r.id),
                   (SELECT count(*) FROM artifacts a WHERE a.run_id = r.id)
            FROM runs r WHERE r.job_id = $1 ORDER BY r.id
            """, r => new StoredRun(r.GetInt64(0), r.IsDBNull(1) ? null : r.GetString(1), r.GetInt64(2), (int)r.GetInt64(3), (int)r.GetInt64(4)), id);

    /// <summary>The idempotency key the agent gives the run of the held suite (head, first round) of a job.</summary>
    public static string RunKey(long jobId) => $"job-{jobId}-{LocalRepo.Suite}-head-1";

    public string Diagnostics() =>
        string.Join("\n\n", _agents.Select(a => $"--- agent pid {a.Id} ---\n{string.Join('\n', a.Lines.TakeLast(40))}"))
        + $"\n\n--- service ---\n{Service.Tail(20)}";

    public async ValueTask DisposeAsync()
    {
        foreach (var agent in _agents) await agent.DisposeAsync();
        Repo.Cleanup();
        Admin?.Dispose();
        await Service.DisposeAsync();
        await Db.DisposeAsync();
        Scratch.Dispose();
    }
}

public sealed record JobRow(long Id, string State, int Attempts, string Reason, string Log, long? AgentId);
