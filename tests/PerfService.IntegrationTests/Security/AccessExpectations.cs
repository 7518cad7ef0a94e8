using PerfService.AgentJobs;
using PerfService.IntegrationTests.Dashboard;

namespace PerfService.IntegrationTests.Security;

/// <summary>What kind of door an endpoint is: the spec the matrix derives every expected answer from.</summary>
public enum Door
{
    Open,         // anyone, no project involved (health, profiles, OpenAPI)
    Read,         // a project's data: visible = public, or private with read/admin and not bound to another project
    List,         // 200 for everyone; the project's items are in it exactly when the project is visible
    Triage,       // read/admin, on a project the token is not bound away from
    Ingest,       // ingest/agent/admin, idem
    AgentJob,     // agent/admin on a job of a project the token is not bound away from (409: not this agent's job)
    AgentSelf,    // agent/admin; the agent is the token's own, no project in the route
    ProjectAdmin, // admin, on a project the token is not bound away from
    ServiceAdmin, // admin bound to no project
    Signed,       // the GitHub webhook: its HMAC signature, never a token (unsigned here: 401 for all)
}

/// <param name="Allowed">The statuses an allowed call may give (default: 2xx).</param>
/// <param name="Marker">For <see cref="Door.List"/>: text present in the body exactly when the target project is visible.</param>
/// <param name="HiddenStatus">What a project the caller may not see answers (404, or what a missing project answers).</param>
public sealed record Row(Door Door, Func<Seeded, Caller, int, HttpRequestMessage> Request, int[]? Allowed = null,
    Func<Seeded, string>? Marker = null, int HiddenStatus = 404);

/// <summary>
/// One row per endpoint of the service, keyed "METHODS route-pattern" as the endpoint data source spells it. A new
/// endpoint without a row fails AccessMatrixTests, and so does a row whose endpoint is gone.
/// </summary>
public static class AccessExpectations
{
    public static readonly Dictionary<string, Row> Rows = new()
    {
        ["* /healthz"] = new(Door.Open, (_, _, _) => Get("/healthz")),
        ["* /readyz"] = new(Door.Open, (_, _, _) => Get("/readyz")),
        ["GET /openapi/{documentName}.json"] = new(Door.Open, (_, _, _) => Get("/openapi/v1.json")),
        // The API reference (Scalar): its page and the scripts and icon it serves from the package.
        ["GET /api-reference/{documentName?}"] = new(Door.Open, (_, _, _) => Get("/api-reference/")),
        ["GET /api-reference/scalar.js"] = new(Door.Open, (_, _, _) => Get("/api-reference/scalar.js")),
        ["GET /api-reference/scalar.aspnetcore.js"] = new(Door.Open, (_, _, _) => Get("/api-reference/scalar.aspnetcore.js")),
        ["GET /api-reference/favicon.svg"] = new(Door.Open, (_, _, _) => Get("/api-reference/favicon.svg")),
        ["GET,HEAD {*path:nonfile}"] = new(Door.Open, (_, _, _) => Get("/alerts")),
        ["GET /api/v1/profiles"] = new(Door.Open, (_, _, _) => Get("/api/v1/profiles")),
        ["GET /hangfire-login/"] = new(Door.Open, (_, _, _) => Get("/hangfire-login")),
        // The login form's POST without its anti-forgery token is refused for everyone, whatever the bearer.
        ["POST /hangfire-login/"] = new(Door.Open, (_, _, _) => new HttpRequestMessage(HttpMethod.Post, "/hangfire-login")
            { Content = new FormUrlEncodedContent([new("token", "perf_x")]) }, Allowed: [400]),

        ["GET /api/v1/projects"] = new(Door.List, (_, _, _) => Get("/api/v1/projects"), Marker: t => $"\"slug\":\"{t.Slug}\""),
        ["GET /api/v1/jobs"] = new(Door.List, (t, _, _) => Get($"/api/v1/jobs?project={t.Slug}"), Marker: t => $"\"project\":\"{t.Slug}\""),
        ["GET /api/v1/alerts/"] = new(Door.List, (t, _, _) => Get($"/api/v1/alerts?project={t.Slug}&state="), Marker: t => $"\"project\":\"{t.Slug}\""),
        ["GET /api/v1/agents"] = new(Door.List, (_, _, _) => Get("/api/v1/agents"), Marker: t => AccessMatrixApp.AgentName(Scopes.Agent, t.ProjectId)),

        ["GET /api/v1/projects/{slug}"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}")),
        ["GET /api/v1/projects/{slug}/thresholds"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}/thresholds")),
        ["GET /api/v1/projects/{slug}/overview"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}/overview")),
        ["GET /api/v1/projects/{slug}/benchmarks"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}/benchmarks")),
        ["GET /api/v1/projects/{slug}/disturbance"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}/disturbance?profile={AccessMatrixApp.JobProfile}")),
        ["GET /api/v1/projects/{slug}/series"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}/series?benchmark={t.BenchmarkId}")),
        ["GET /api/v1/projects/{slug}/runs"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}/runs")),
        ["GET /api/v1/projects/{slug}/compare"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}/compare?base=run:{t.RunId}&head=run:{t.RunId}")),
        ["GET /api/v1/projects/{slug}/pulls/{pr:int}/report"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}/pulls/{t.PullRequest}/report")),
        ["GET /api/v1/projects/{slug}/pulls/{pr:int}/comment"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}/pulls/{t.PullRequest}/comment")),
        ["GET /api/v1/runs/{runId:long}"] = new(Door.Read, (t, _, _) => Get($"/api/v1/runs/{t.RunId}")),
        ["GET /api/v1/runs/{runId:long}/artifacts/{**path}"] = new(Door.Read, (t, _, _) => Get($"/api/v1/runs/{t.RunId}/artifacts/{t.Artifact}")),
        ["GET /api/v1/runs/{runId:long}/verdicts"] = new(Door.Read, (t, _, _) => Get($"/api/v1/runs/{t.RunId}/verdicts")),
        ["GET /api/v1/runs/{runId:long}/targets"] = new(Door.Read, (t, _, _) => Get($"/api/v1/runs/{t.RunId}/targets")),
        ["GET /api/v1/alerts/{alertId:long}"] = new(Door.Read, (t, _, _) => Get($"/api/v1/alerts/{t.AlertId}")),
        ["GET /api/v1/projects/{slug}/alert-groups"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}/alert-groups?state=")),
        ["GET /api/v1/alert-groups/{alertGroupId:long}"] = new(Door.Read, (t, _, _) => Get($"/api/v1/alert-groups/{t.AlertGroupId}")),
        ["GET /api/v1/jobs/{jobId:long}"] = new(Door.Read, (t, _, _) => Get($"/api/v1/jobs/{t.JobId}")),
        ["GET /api/v1/jobs/{jobId:long}/profiles"] = new(Door.Read, (t, _, _) => Get($"/api/v1/jobs/{t.ProfilingJobId}/profiles")),
        ["GET /api/v1/jobs/{jobId:long}/profiles/differential"] = new(Door.Read, (t, _, _) =>
            Get($"/api/v1/jobs/{t.ProfilingJobId}/profiles/differential?benchmark={AccessMatrixApp.ProfiledBenchmark}")),
        ["GET /api/v1/projects/{slug}/pulls/{pr:int}/profiles"] = new(Door.Read, (t, _, _) => Get($"/api/v1/projects/{t.Slug}/pulls/{t.PullRequest}/profiles")),
        ["GET /api/v1/alerts/{alertId:long}/profiles"] = new(Door.Read, (t, _, _) => Get($"/api/v1/alerts/{t.AlertId}/profiles")),
        ["GET /api/v1/runs/{runId:long}/profiles"] = new(Door.Read, (t, _, _) => Get($"/api/v1/runs/{t.RunId}/profiles")),
        ["GET /api/v1/profiles/{cpuProfileId:long}/native"] = new(Door.Read, (t, _, _) => Get($"/api/v1/profiles/{t.CpuProfileId}/native")),
        ["GET /api/v1/profiles/{cpuProfileId:long}/folded"] = new(Door.Read, (t, _, _) => Get($"/api/v1/profiles/{t.CpuProfileId}/folded")),

        ["POST /api/v1/alerts/{alertId:long}/state"] = new(Door.Triage, (t, _, _) => Json(HttpMethod.Post, $"/api/v1/alerts/{t.AlertId}/state", new { state = "acknowledged", reason = "matrix" })),
        ["POST /api/v1/alert-groups/{alertGroupId:long}/state"] = new(Door.Triage, (t, _, _) => Json(HttpMethod.Post, $"/api/v1/alert-groups/{t.AlertGroupId}/state", new { state = "acknowledged", reason = "matrix" })),
        ["POST /api/v1/runs"] = new(Door.Ingest, (t, _, _) => IngestRun(t)),
        ["POST /api/v1/jobs/{jobId:long}/heartbeat"] = new(Door.AgentJob, (t, c, _) => Json(HttpMethod.Post, $"/api/v1/jobs/{t.JobId}/heartbeat", new HeartbeatRequest(c.AgentId, null, ["x"])), Allowed: [409]),
        ["POST /api/v1/jobs/{jobId:long}/complete"] = new(Door.AgentJob, (t, c, _) => Json(HttpMethod.Post, $"/api/v1/jobs/{t.JobId}/complete", new CompleteJobRequest(c.AgentId, true, null, ["x"])), Allowed: [409]),
        // The seeded job measures: an allowed agent learns it is no profiling job (409); the job's project is checked first.
        ["POST /api/v1/profiles"] = new(Door.AgentJob, (t, c, _) => new HttpRequestMessage(HttpMethod.Post, "/api/v1/profiles")
        {
            Content = Profiling.ProfileUploads.Body(new ProfileUploadMetadata(t.JobId, c.AgentId, "maps", AccessMatrixApp.ProfiledBenchmark, "head", "folded"), "main 1\n"u8.ToArray()),
        }, Allowed: [409]),
        ["POST /api/v1/agents/register"] = new(Door.AgentSelf, (_, _, n) => Json(HttpMethod.Post, "/api/v1/agents/register",
            new RegisterAgentRequest($"matrix-{n}", AccessMatrixApp.AgentProfile, new MachineInfo("Test CPU", 2, 2, 1L << 30, "Linux", "6.1", new Dictionary<string, string>())))),
        ["POST /api/v1/agents/{agentId:long}/claim"] = new(Door.AgentSelf, (_, c, _) => new HttpRequestMessage(HttpMethod.Post, $"/api/v1/agents/{c.AgentId}/claim?waitSeconds=0")),

        // The seeded run is not parked: an allowed caller gets the 409 "not parked" problem.
        ["POST /api/v1/runs/{runId:long}/analysis/retry"] = new(Door.ProjectAdmin, (t, _, _) => new HttpRequestMessage(HttpMethod.Post,
            $"/api/v1/runs/{t.RunId}/analysis/retry"), Allowed: [202, 409]),
        ["PATCH /api/v1/projects/{slug}"] = new(Door.ProjectAdmin, (t, _, _) => Json(HttpMethod.Patch, $"/api/v1/projects/{t.Slug}", new { })),
        ["PUT /api/v1/projects/{slug}/thresholds"] = new(Door.ProjectAdmin, (t, _, _) => Json(HttpMethod.Put, $"/api/v1/projects/{t.Slug}/thresholds",
            new { thresholds = new[] { new { pattern = "*", threshold = 0.2 } } })),
        // A hidden project answers like a missing one: the scheduler's 422 "does not exist".
        ["POST /api/v1/jobs"] = new(Door.ProjectAdmin, (t, _, _) => Json(HttpMethod.Post, "/api/v1/jobs",
            new JobRequest(t.Slug, HistorySeed.Sha(4), Profiles: [AccessMatrixApp.JobProfile])), HiddenStatus: 422),

        // Profiling the seeded pull request's benchmarks (202), or 422 when its glob matches more than one job may profile.
        ["POST /api/v1/projects/{slug}/pulls/{pr:int}/profiles"] = new(Door.ProjectAdmin, (t, _, _) => Json(HttpMethod.Post,
            $"/api/v1/projects/{t.Slug}/pulls/{t.PullRequest}/profiles", new { benchmarks = "*" }), Allowed: [202, 422]),
        // Nothing awaits approval in the seed: an allowed caller gets the 404 "nothing to approve" problem.
        ["POST /api/v1/projects/{slug}/pulls/{pr:int}/approve"] = new(Door.ProjectAdmin, (t, _, _) => Json(HttpMethod.Post,
            $"/api/v1/projects/{t.Slug}/pulls/{t.PullRequest}/approve", new { }), Allowed: [200, 204, 404]),

        ["POST /api/v1/projects"] = new(Door.ServiceAdmin, (_, _, n) => Json(HttpMethod.Post, "/api/v1/projects", new { slug = $"made-{n}", name = "m" })),
        ["* /hangfire/{**path}"] = new(Door.ServiceAdmin, (_, _, _) => Get("/hangfire")),
        // Prometheus scrapes with a service-admin token (or from Telemetry:MetricsAllowedNetworks, empty by default).
        ["* /metrics"] = new(Door.ServiceAdmin, (_, _, _) => Get("/metrics")),
        ["GET /api/v1/service/status"] = new(Door.ServiceAdmin, (_, _, _) => Get("/api/v1/service/status")),

        ["POST /api/v1/github/webhook"] = new(Door.Signed, (_, _, _) => Json(HttpMethod.Post, "/api/v1/github/webhook", new { zen = "x" })),
    };

    /// <summary>The expected status (or, for lists, 200 and whether the project shows): the rule as the issue states it.</summary>
    public static (int[] Statuses, bool? Listed) Expect(Row row, string scope, Binding binding, bool isPublic)
    {
        var anonymous = scope == "none";
        var visible = isPublic || (scope is Scopes.Read or Scopes.Admin && binding != Binding.Other);
        var ok = row.Allowed ?? [200, 201, 204];
        int[] Scoped(params string[] scopes) => anonymous ? [401] : !scopes.Contains(scope) ? [403] : [];
        int[] OnProject(params string[] scopes) =>
            Scoped(scopes) is { Length: > 0 } refused ? refused
            : binding == Binding.Other ? [isPublic ? 403 : row.HiddenStatus]
            : ok;
        return row.Door switch
        {
            Door.Open => (row.Allowed ?? [200], null),
            Door.Read => (visible ? ok : [404], null),
            Door.List => ([200], visible),
            Door.Triage => (OnProject(Scopes.Read, Scopes.Admin), null),
            Door.Ingest => (OnProject(Scopes.Ingest, Scopes.Agent, Scopes.Admin), null),
            Door.AgentJob => (OnProject(Scopes.Agent, Scopes.Admin), null),
            Door.AgentSelf => (Scoped(Scopes.Agent, Scopes.Admin) is { Length: > 0 } r ? r : ok, null),
            Door.ProjectAdmin => (OnProject(Scopes.Admin), null),
            Door.ServiceAdmin => (Scoped(Scopes.Admin) is { Length: > 0 } r ? r : binding == Binding.Unbound ? ok : [403], null),
            Door.Signed => ([401], null),
            _ => throw new ArgumentOutOfRangeException(nameof(row)),
        };
    }

    private static HttpRequestMessage Get(string path) => new(HttpMethod.Get, path);

    private static HttpRequestMessage Json(HttpMethod method, string path, object body) => new(method, path) { Content = JsonContent.Create(body) };

    private static HttpRequestMessage IngestRun(Seeded t)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/api/v1/runs")
        {
            Content = PerfServiceApp.Upload(AccessMatrixApp.Run(t.Slug), (HistorySeed.GoFile, HistorySeed.ScaledGo(1))),
        };
        request.Headers.Add("Idempotency-Key", "matrix-" + t.Slug); // the first post stores, the rest answer the same run
        return request;
    }
}
