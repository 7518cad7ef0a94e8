using System.Net.Http.Headers;
using PerfService.AgentJobs;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Dashboard;

namespace PerfService.IntegrationTests.Security;

public enum Binding { Unbound, This, Other }

/// <summary>Everything one project owns that a route can name, seeded through the real API.</summary>
public sealed record Seeded(string Slug, bool IsPublic, long ProjectId, long RunId, string Artifact, long AlertId, long JobId, long BenchmarkId, int PullRequest, long AlertGroupId,
    long ProfilingJobId = 0, long CpuProfileId = 0);

/// <summary>Who calls: a scope ("none" for anonymous), a binding relative to the target, and its own agent if it may have one.</summary>
public sealed record Caller(string Scope, Binding Binding, string? Token, long AgentId);

/// <summary>
/// A service with a public and a private project, each with runs, an artifact, an alert, a pull-request job (so a PR
/// report), thresholds, and an agent registered by a token bound to it; and a token of every scope unbound and bound
/// to each project.
/// </summary>
public sealed class AccessMatrixApp : PerfServiceApp
{
    public const string JobProfile = "i7-4790k";
    public const string AgentProfile = "m1-pro"; // the matrix's agents never claim the seeded jobs
    public static readonly string[] ScopesAndNone = ["none", Scopes.Read, Scopes.Ingest, Scopes.Agent, Scopes.Admin];

    public Seeded Public { get; private set; } = null!;
    public Seeded Private { get; private set; } = null!;

    // (scope, bound project id or 0) → token and its agent
    private readonly Dictionary<(string, long), (string Token, long AgentId)> _tokens = new();

    protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?> { ["RateLimit:PermitPerMinute"] = "1000000" };

    public override async Task InitializeAsync()
    {
        await base.InitializeAsync();
        Public = await SeedAsync("open-project", isPublic: true);
        Private = await SeedAsync("secret-project", isPublic: false);
        foreach (var scope in ScopesAndNone.Skip(1))
            foreach (var bound in new long[] { 0, Public.ProjectId, Private.ProjectId })
            {
                var token = await WithDbAsync(db => TokenCommands.CreateAsync(db, $"{scope}-{bound}", [scope], bound == 0 ? null : bound));
                var agentId = 0L;
                if (scope is Scopes.Agent or Scopes.Admin)
                    agentId = (await AgentClient.RegisterAsync(this, AgentName(scope, bound), AgentProfile, Client(token))).Id;
                _tokens[(scope, bound)] = (token, agentId);
            }
    }

    public static string AgentName(string scope, long bound) => $"agent-{scope}-{bound}";

    public Caller CallerFor(string scope, Binding binding, Seeded target)
    {
        if (scope == "none") return new Caller(scope, binding, null, _tokens[(Scopes.Agent, 0)].AgentId);
        var bound = binding switch { Binding.Unbound => 0, Binding.This => target.ProjectId, _ => Other(target).ProjectId };
        var (token, agentId) = _tokens[(scope, bound)];
        return new Caller(scope, binding, token, agentId == 0 ? _tokens[(Scopes.Agent, 0)].AgentId : agentId);
    }

    public Seeded Other(Seeded target) => target == Public ? Private : Public;

    public HttpClient Client(string? token)
    {
        var client = CreateClient(new() { AllowAutoRedirect = false });
        if (token is not null) client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return client;
    }

    private async Task<Seeded> SeedAsync(string slug, bool isPublic)
    {
        await CreateProjectAsync(slug, isPublic);
        var ingest = await ClientWithScopesAsync(Scopes.Ingest);
        var run = await HistorySeed.UploadGoAsync(ingest, slug, 1);
        var jobs = await AgentClient.EnqueueAsync(this, new JobRequest(slug, HistorySeed.Sha(3), HistorySeed.Sha(1), "feature", 7, Profiles: [JobProfile]));
        var admin = await ClientWithScopesAsync(Scopes.Admin);
        (await admin.PutAsJsonAsync($"/api/v1/projects/{slug}/thresholds", new { thresholds = new[] { new { pattern = "*", threshold = 0.2 } } })).EnsureSuccessStatusCode();
        return await WithDbAsync(async db =>
        {
            var project = await db.Projects.SingleAsync(p => p.Slug == slug);
            var group = new AlertGroup { ProjectId = project.Id, Scope = AlertGroup.MainScope, CreatedAt = DateTimeOffset.UtcNow, UpdatedAt = DateTimeOffset.UtcNow };
            db.AlertGroups.Add(group);
            await db.SaveChangesAsync();
            var alert = new Alert { ProjectId = project.Id, Kind = AlertKind.Regression, GroupKey = slug, Summary = $"{slug} regression", CreatedAt = DateTimeOffset.UtcNow, UpdatedAt = DateTimeOffset.UtcNow, AlertGroupId = group.Id };
            db.Alerts.Add(alert);
            await db.SaveChangesAsync();
            var benchmark = await db.Benchmarks.FirstAsync(b => db.Suites.Any(s => s.Id == b.SuiteId && s.ProjectId == project.Id));
            var artifact = await db.Artifacts.Where(a => a.RunId == run).Select(a => a.Path).FirstAsync();
            var (profilingJob, cpuProfile) = await SeedProfileAsync(db, project.Id, alert.Id);
            return new Seeded(slug, isPublic, project.Id, run, artifact, alert.Id, jobs[0].Id, benchmark.Id, 7, group.Id, profilingJob, cpuProfile);
        });
    }

    public const string ProfiledBenchmark = "Maps.Get";

    /// <summary>A finished profiling job of the seeded pull request and alert, with one stored profile.</summary>
    private static async Task<(long Job, long Profile)> SeedProfileAsync(PerfDbContext db, long projectId, long alertId)
    {
        var profileId = await db.Profiles.Where(p => p.Name == JobProfile).Select(p => p.Id).SingleAsync();
        var job = new Job
        {
            ProjectId = projectId, Kind = JobKind.Profile, Commit = HistorySeed.Sha(3), BaseCommit = HistorySeed.Sha(1), PullRequest = 7, AlertId = alertId,
            ProfileId = profileId, State = JobState.Succeeded, Profiling = new ProfilingRequest([new ProfileTarget("maps", ProfiledBenchmark)]), CreatedAt = DateTimeOffset.UtcNow,
        };
        db.Jobs.Add(job);
        await db.SaveChangesAsync();
        var folded = global::PerfService.Ingestion.Gzip.Compress("main;Maps.Get 10\n"u8);
        var profile = new CpuProfile
        {
            JobId = job.Id, ProjectId = projectId, ProfileId = profileId, Suite = "maps", Benchmark = ProfiledBenchmark, Role = RunRole.Head, Round = 1,
            Format = Core.Profiles.ProfileFormat.Folded, NativeSize = 17, NativeGzip = folded, FoldedGzip = folded, Samples = 10, CreatedAt = DateTimeOffset.UtcNow,
        };
        db.CpuProfiles.Add(profile);
        await db.SaveChangesAsync();
        return (job.Id, profile.Id);
    }

    public static RunMetadata Run(string slug) => new()
    {
        Project = slug, Commit = HistorySeed.Sha(2), CommittedAt = HistorySeed.Epoch, Branch = "main", Profile = JobProfile, Suite = "maps", Format = "gobench",
    };
}
