using System.ComponentModel;
using System.Security.Claims;
using System.Text.Json;
using Hangfire;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Access;
using PerfService.Auth;
using PerfService.Core.Contracts;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Hosting.Http;
using PerfService.PullRequests;

namespace PerfService.AgentJobs;

public static class AgentJobsApi
{
    public static WebApplicationBuilder AddAgentJobs(this WebApplicationBuilder builder)
    {
        builder.Services.AddOptions<JobOptions>().BindConfiguration("Jobs").ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddSingleton<JobNotifier>();
        builder.Services.AddHostedService(sp => sp.GetRequiredService<JobNotifier>());
        builder.Services.AddScoped<JobQueue>();
        builder.Services.AddScoped<JobScheduler>();
        return builder;
    }

    public static RouteGroupBuilder MapAgentJobsApi(this IEndpointRouteBuilder app)
    {
        var agents = app.MapGroup("/api/v1").WithTags("Agents").RequireAuthorization(Scopes.Agent);
        agents
            .MapPost("/agents/register", Register)
            .WithSummary("Register an agent (or re-register it after a restart)");
        agents
            .MapPost("/agents/{agentId:long}/claim", Claim)
            .WithSummary("Claim the next job for an agent")
            .WithDescription(
                "Long poll: answers 200 with a job assignment, or 204 when none came within waitSeconds. The claim is a lease that heartbeats extend."
            );
        agents
            .MapPost("/jobs/{jobId:long}/heartbeat", Heartbeat)
            .WithSummary("Extend a claimed job's lease and append to its log");
        agents.MapPost("/jobs/{jobId:long}/complete", Complete).WithSummary("Report a claimed job done or failed");

        var jobs = app.MapGroup("/api/v1").WithTags("Jobs").RequireRateLimiting(DashboardRateLimiting.Policy);
        jobs.MapPost("/jobs", Enqueue)
            .RequireAuthorization(Scopes.Admin)
            .WithSummary("Queue benchmark jobs for a commit");
        jobs.MapGet("/jobs", JobsQueries.List).WithSummary("List jobs, newest first");
        jobs.MapGet("/jobs/{jobId:long}", JobsQueries.Get).WithSummary("Get a job with its log");
        jobs.MapGet("/agents", JobsQueries.Agents).WithSummary("List the agents and what they are running");
        return agents;
    }

    private static async Task<Results<Ok<RegisterAgentResponse>, ProblemHttpResult>> Register(
        RegisterAgentRequest request,
        PerfDbContext db,
        ClaimsPrincipal user,
        TimeProvider time,
        CancellationToken ct
    )
    {
        if (string.IsNullOrWhiteSpace(request.Name) || request.Name.Length > 200)
            return TypedResults.Problem("name must be 1 to 200 characters", statusCode: 400, title: "Invalid agent");
        var m = request.Machine;
        if (
            new[]
            {
                ("name", request.Name),
                ("profile", request.Profile),
                ("machine.cpuModel", m?.CpuModel),
                ("machine.os", m?.Os),
                ("machine.kernel", m?.Kernel),
                ("machine.cpuGovernor", m?.CpuGovernor),
            }
                .Concat(
                    m?.Toolchains?.SelectMany(t =>
                        new[] { ("machine.toolchains", (string?)t.Key), ("machine.toolchains", t.Value) }
                    ) ?? []
                )
                .FirstOrDefault(f => Hosting.NulText.In(f.Item2)) is
            { Item1: { } nul }
        )
            return TypedResults.Problem($"{nul} {Hosting.NulText.Rule}", statusCode: 400, title: "Invalid agent");
        var profile = await db.Profiles.FirstOrDefaultAsync(p => p.Name == request.Profile, ct);
        if (profile is null)
            return TypedResults.Problem(
                $"profile '{request.Profile}' is not declared; known: {string.Join(", ", await db.Profiles.Select(p => p.Name).ToListAsync(ct))}",
                statusCode: 422,
                title: "Unknown profile"
            );

        var mismatch = ProfileMatch.Explain(profile, request.Machine);
        var tokenId = long.Parse(user.FindFirstValue(ClaimTypes.NameIdentifier)!);
        var now = time.GetUtcNow();
        var agent = await db.Agents.FirstOrDefaultAsync(a => a.Name == request.Name, ct);
        // A name is held by the token that registered it, while that token lives: taking it over would hand this token
        // the other agent's identity (its jobs, heartbeats and runs). A revoked or expired holder frees the name, so an
        // operator can rotate an agent's token. Only an admin bound to no project may take a live name over: an admin
        // bound to one project administers that project, not the fleet's or another project's machines.
        if (
            agent is { TokenId: { } holder }
            && holder != tokenId
            && !user.IsServiceAdmin()
            && await db
                .Tokens.Where(t => t.Id == holder && t.RevokedAt == null && (t.ExpiresAt == null || t.ExpiresAt > now))
                .Select(t => new { t.ProjectId })
                .FirstOrDefaultAsync(ct)
                is { } live
        )
            // The caller learns who holds the name only when it may see that agent in the list (a shared agent, or one
            // of its own project's); a hidden project's private agent is not confirmed, only unavailable.
            return TypedResults.Problem(
                live.ProjectId is null || await db.VisibleProjects(user).AnyAsync(p => p.Id == live.ProjectId, ct)
                    ? $"agent name '{request.Name}' is registered by another token; choose another name or have an admin re-register it"
                    : $"agent name '{request.Name}' is not available to this token; choose another name",
                statusCode: 409,
                title: "Agent name taken"
            );
        if (agent is null)
            db.Agents.Add(agent = new Agent { Name = request.Name, RegisteredAt = now });
        agent.ProfileId = profile.Id;
        agent.TokenId = tokenId;
        agent.Machine = JsonSerializer.Serialize(request.Machine);
        agent.ProfileMismatch = mismatch is not null;
        agent.LastSeenAt = now;
        await db.SaveChangesAsync(ct);
        return TypedResults.Ok(new RegisterAgentResponse(agent.Id, profile.Name, mismatch is not null, mismatch));
    }

    private static async Task<Results<Ok<JobAssignment>, NoContent, NotFound, ForbidHttpResult>> Claim(
        long agentId,
        [Description(
            "How long to wait for a job before answering 204 (long poll), in seconds; default 30, capped by Jobs:MaxClaimWaitSeconds."
        )]
            int? waitSeconds,
        PerfDbContext db,
        JobQueue queue,
        ClaimsPrincipal user,
        Microsoft.Extensions.Options.IOptions<JobOptions> options,
        TimeProvider time,
        CancellationToken ct
    )
    {
        var agent = await db.Agents.FirstOrDefaultAsync(a => a.Id == agentId, ct);
        if (agent is null)
            return TypedResults.NotFound();
        if (!OwnsAgent(user, agent))
            return TypedResults.Forbid();
        agent.LastSeenAt = time.GetUtcNow();
        await db.SaveChangesAsync(ct);
        var wait = TimeSpan.FromSeconds(Math.Clamp(waitSeconds ?? 30, 0, options.Value.MaxClaimWaitSeconds));
        // A token bound to a project claims that project's jobs only; so does an agent registered with such a token.
        var project =
            user.BoundProject()
            ?? await db.Agents.Where(a => a.Id == agent.Id).Select(a => a.Token!.ProjectId).FirstOrDefaultAsync(ct);
        var job = await queue.ClaimAsync(agent.Id, agent.ProfileId, project, wait, ct);
        return job is null ? TypedResults.NoContent() : TypedResults.Ok(job);
    }

    private static async Task<Results<Ok<HeartbeatResponse>, Conflict<string>, ForbidHttpResult, NotFound>> Heartbeat(
        long jobId,
        HeartbeatRequest request,
        PerfDbContext db,
        JobQueue queue,
        ClaimsPrincipal user,
        TimeProvider time,
        CancellationToken ct
    )
    {
        if (await db.Agents.AsNoTracking().FirstOrDefaultAsync(a => a.Id == request.AgentId, ct) is not { } agent)
            return TypedResults.NotFound();
        if (!OwnsAgent(user, agent))
            return TypedResults.Forbid();
        await db
            .Agents.Where(a => a.Id == request.AgentId)
            .ExecuteUpdateAsync(s => s.SetProperty(a => a.LastSeenAt, time.GetUtcNow()), ct);
        var response = await queue.HeartbeatAsync(jobId, request.AgentId, request.Progress, request.Log, ct);
        return response is null
            ? TypedResults.Conflict("this agent no longer holds the job (its lease expired)")
            : TypedResults.Ok(response);
    }

    private static async Task<Results<NoContent, Conflict<string>, ForbidHttpResult, NotFound>> Complete(
        long jobId,
        CompleteJobRequest request,
        PerfDbContext db,
        JobQueue queue,
        ClaimsPrincipal user,
        IBackgroundJobClient background,
        CancellationToken ct
    )
    {
        if (await db.Agents.AsNoTracking().FirstOrDefaultAsync(a => a.Id == request.AgentId, ct) is not { } agent)
            return TypedResults.NotFound();
        if (!OwnsAgent(user, agent))
            return TypedResults.Forbid();
        if (!await queue.CompleteAsync(jobId, request.AgentId, request.Succeeded, request.Error, request.Log, ct))
            return TypedResults.Conflict("this agent no longer holds the job (its lease expired)");
        // A finished pull-request job is judged in the background: head against its interleaved base rounds.
        if (
            request.Succeeded
            && await db.Jobs.AnyAsync(
                j =>
                    j.Id == jobId
                    && j.PullRequest != null
                    && j.Kind != JobKind.Profile
                    && j.State == JobState.Succeeded,
                ct
            )
        )
            PullRequestComparisonJob.Enqueue(background, jobId);
        return TypedResults.NoContent();
    }

    private static async Task<Results<Created<List<JobDto>>, ValidationProblem, ProblemHttpResult>> Enqueue(
        JobRequest request,
        JobScheduler scheduler,
        PerfDbContext db,
        ClaimsPrincipal user,
        CancellationToken ct
    )
    {
        // A hidden project reads like a missing one (the scheduler's 422), so a bound token learns no names.
        if (
            await ProjectAccess.DecideAsync(db, user, request.Project ?? "", acting: true, ct) is
            { Decision: not AccessDecision.Allowed } refused
        )
            return refused.Decision == AccessDecision.Forbidden
                ? TypedResults.Problem(
                    $"this token is bound to another project and may not queue jobs for '{request.Project}'",
                    statusCode: 403,
                    title: "Forbidden"
                )
                : TypedResults.Problem(
                    $"project '{request.Project}' does not exist",
                    statusCode: 422,
                    title: "Invalid job request"
                );
        try
        {
            var jobs = await scheduler.EnqueueAsync(request, ct);
            var ids = jobs.Select(j => j.Id).ToList();
            return TypedResults.Created(
                "/api/v1/jobs",
                await JobsQueries.Project(db, db.Jobs.Where(j => ids.Contains(j.Id)), withLog: false).ToListAsync(ct)
            );
        }
        catch (JobRequestException e) when (e.Field is { } field)
        {
            return TypedResults.ValidationProblem(
                new Dictionary<string, string[]> { [field] = [e.Message] },
                title: "Invalid job request"
            );
        }
        catch (JobRequestException e)
        {
            return TypedResults.Problem(e.Message, statusCode: 422, title: "Invalid job request");
        }
    }

    /// <summary>An agent token may only act for agents it registered; admin tokens may act for any.</summary>
    internal static bool OwnsAgent(ClaimsPrincipal user, Agent agent) =>
        user.HasAnyScope(Scopes.Admin) || agent.TokenId?.ToString() == user.FindFirstValue(ClaimTypes.NameIdentifier);
}
