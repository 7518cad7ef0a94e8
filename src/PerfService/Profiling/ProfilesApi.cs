using System.ComponentModel;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Access;
using PerfService.Auth;
using PerfService.Core.Contracts;
using PerfService.Hosting.Http;

namespace PerfService.Profiling;

/// <summary>CPU profiles of base and head: posted by the agent of a profiling job, read by whoever may see the
/// project.</summary>
public static class ProfilesApi
{
    public static WebApplicationBuilder AddProfiling(this WebApplicationBuilder builder)
    {
        builder
            .Services.AddOptions<ProfileOptions>()
            .BindConfiguration(ProfileOptions.Section)
            .ValidateDataAnnotations()
            .ValidateOnStart();
        builder.Services.AddScoped<ProfilingJobs>();
        return builder;
    }

    public static RouteGroupBuilder MapProfilesApi(this IEndpointRouteBuilder app)
    {
        var agents = app.MapGroup("/api/v1").WithTags("Profiles").RequireAuthorization(Scopes.Agent);
        agents
            .MapPost("/profiles", ProfileUpload.PostAsync)
            .DisableAntiforgery()
            .WithSummary("Upload a CPU profile recorded by a profiling job")
            .WithDescription(
                "multipart/form-data: a 'profile' part (ProfileUploadMetadata as JSON) and a 'file' part (the profiler's native file: "
                    + "speedscope JSON, pprof, or folded stacks). The job must be a profiling job this agent holds; problems name the field at fault. "
                    + "One profile is stored per benchmark, suite, side and round of a job: a repeat is answered 200 with the stored one (duplicate: true)."
            )
            .Produces<ProfileCreated>(StatusCodes.Status201Created)
            .Produces<ProfileCreated>(StatusCodes.Status200OK)
            .ProducesProblem(400)
            .ProducesProblem(403)
            .ProducesProblem(404)
            .ProducesProblem(409)
            .ProducesProblem(413)
            .ProducesProblem(415)
            .ProducesProblem(503);

        var reads = app.MapGroup("/api/v1").WithTags("Profiles").RequireRateLimiting(DashboardRateLimiting.Policy);
        reads
            .MapGet("/jobs/{jobId:long}/profiles", ProfileQueries.OfJob)
            .WithSummary("List the profiles a profiling job recorded");
        reads
            .MapGet(
                "/jobs/{jobId:long}/profiles/differential",
                (
                    [Description("The benchmark's stored name.")] string benchmark,
                    long jobId,
                    Data.PerfDbContext db,
                    Microsoft.Extensions.Options.IOptions<ProfileOptions> options,
                    Microsoft.Extensions.Options.IOptions<Microsoft.AspNetCore.Http.Json.JsonOptions> json,
                    CancellationToken ct
                ) => ProfileQueries.Differential(jobId, benchmark, db, options, json, ct)
            )
            .Produces<DifferentialDto>()
            .WithSummary(
                "Get head against base for one benchmark of a profiling job: the differential flame graph's data"
            );
        reads
            .MapGet("/projects/{slug}/pulls/{pr:int}/profiles", ProfileQueries.OfPullRequest)
            .WithSummary("List a pull request's profiling jobs and their profiles");
        reads
            .MapGet("/alerts/{alertId:long}/profiles", ProfileQueries.OfAlert)
            .WithSummary("List the profiling jobs of a change-point or target alert and their profiles");
        reads
            .MapGet("/runs/{runId:long}/profiles", ProfileQueries.OfRun)
            .WithSummary("List the profiling jobs of a run's commit on its hardware profile")
            .WithDescription("The default branch's: of a target the run broke, of a change point at its commit.");
        reads
            .MapGet("/profiles/{cpuProfileId:long}/native", ProfileQueries.Native)
            .WithSummary("Download a profile in the profiler's own format");
        reads
            .MapGet("/profiles/{cpuProfileId:long}/folded", ProfileQueries.Folded)
            .WithSummary("Download a profile as normalised folded stacks");
        // The pull request page's button: what `/perf profile` does on GitHub, for an admin token (a writer's).
        app.MapPost("/api/v1/projects/{slug}/pulls/{pr:int}/profiles", RequestAsync)
            .WithTags("Profiles")
            .RequireAuthorization(Scopes.Admin)
            .RequireRateLimiting(DashboardRateLimiting.Policy)
            .WithSummary("Ask for profiles of a pull request's benchmarks on base and head")
            .WithDescription(
                "Queues one profiling job per hardware profile the head was measured on (or the one named). A head that awaits a maintainer's approval is profiled once it is approved."
            )
            .ProducesProblem(422);
        return agents;
    }

    private static async Task<Results<Accepted<List<long>>, ProblemHttpResult>> RequestAsync(
        int pr,
        ProfileRequest request,
        HttpContext http,
        Data.PerfDbContext db,
        ProfilingJobs profiling,
        CancellationToken ct
    )
    {
        if (string.IsNullOrWhiteSpace(request.Benchmarks) || request.Benchmarks.Length > 500)
            return TypedResults.Problem(
                "benchmarks must be a glob of 1 to 500 characters, e.g. Parser.*",
                statusCode: 422,
                title: "Invalid profile request"
            );
        var project = await db.Projects.AsNoTracking().FirstAsync(p => p.Id == http.Project().Id, ct);
        var (jobs, refusal) = await profiling.RequestAsync(project, pr, request.Benchmarks, request.Profile, ct);
        return refusal is not null
            ? TypedResults.Problem(refusal, statusCode: 422, title: "Nothing to profile")
            : TypedResults.Accepted(
                $"/api/v1/projects/{project.Slug}/pulls/{pr}/profiles",
                jobs.Select(j => j.Id).ToList()
            );
    }
}

/// <param name="Benchmarks">A glob over benchmark names (<c>*</c> any text, <c>?</c> one character).</param>
/// <param name="Profile">One hardware profile, or every profile the head was measured on.</param>
public sealed record ProfileRequest(string Benchmarks, string? Profile = null);
