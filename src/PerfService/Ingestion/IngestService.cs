using Microsoft.EntityFrameworkCore;
using PerfService.Analysis;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;
using PerfService.Data;
using PerfService.Hosting.Telemetry;

namespace PerfService.Ingestion;

/// <summary>
/// Validates, parses and stores one upload. Parsing happens before the transaction opens, so bad input never reaches
/// the tables; the write itself is one transaction (all or nothing), and the idempotency key makes a repeat return the
/// first run.
/// </summary>
public sealed class IngestService(PerfDbContext db, RunWriter writer, ILogger<IngestService> logger)
{
    public async Task<RunCreated> IngestAsync(
        Upload upload,
        string? idempotencyKey,
        RunPoster poster,
        CancellationToken ct
    )
    {
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        using var activity = PerfTelemetry.Source.StartActivity("ingest run"); // the analysis job links back to it
        var m = upload.Metadata;
        RunValidator.Validate(m);
        if (idempotencyKey is { Length: > 200 })
            throw new UploadException(400, "Invalid idempotency key", "Idempotency-Key is limited to 200 characters");

        if (m.JobId is { } jobId)
            JobHold.CheckPoster(jobId, poster);
        var project = await db
            .Projects.AsNoTracking()
            .Where(p => p.Slug == m.Project)
            .Select(p => new
            {
                p.Id,
                p.IsPublic,
                p.DefaultBranch,
            })
            .FirstOrDefaultAsync(ct);
        // A token bound to another project gets 403 for a public project and, for a private one, the answer of a
        // missing one.
        var decision = project is null
            ? Access.AccessDecision.Hidden
            : Access.ProjectAccess.Decide(
                poster.ProjectId,
                readsPrivate: false,
                authenticated: true,
                project.Id,
                project.IsPublic,
                acting: true
            );
        if (project is null || decision == Access.AccessDecision.Hidden)
            throw new UploadException(
                404,
                "Unknown project",
                $"project '{m.Project}' does not exist; create it first (POST /api/v1/projects)",
                "run",
                "$.project"
            );
        if (decision == Access.AccessDecision.Forbidden)
            throw new UploadException(403, "Forbidden", $"this token may not post runs to '{m.Project}'");
        var profile = await db
            .Profiles.AsNoTracking()
            .Where(p => p.Name == m.Profile)
            .Select(p => new { p.Id })
            .FirstOrDefaultAsync(ct);
        if (profile is null)
        {
            var known = await db.Profiles.Select(p => p.Name).OrderBy(n => n).ToListAsync(ct);
            throw new UploadException(
                422,
                "Unknown profile",
                $"profile '{m.Profile}' is not declared; known: {string.Join(", ", known)}",
                "run",
                "$.profile"
            );
        }

        if (idempotencyKey is not null && await writer.FindByKeyAsync(project.Id, idempotencyKey, ct) is { } existing)
        {
            await AnalysisRequests.EnqueueAsync(db, existing.RunId, ct);
            return existing with { Duplicate = true };
        }

        ParseResult parsed;
        try
        {
            parsed = ResultParsers.Parse(upload.Files, m.Format ?? "auto");
        }
        catch (ParseException e)
        {
            throw new UploadException(422, "Unparseable results", e.Message, e.File, e.Location);
        }
        RunValidator.ValidateResults(parsed, upload.Files[0].Path);
        if (parsed.Results.Count == 0)
            throw new UploadException(
                422,
                "No results",
                "the files parsed but hold no benchmark results",
                upload.Files[0].Path
            );

        if (
            m.Targets?.FirstOrDefault(t =>
                string.IsNullOrWhiteSpace(t.Name) || string.IsNullOrWhiteSpace(t.Benchmark)
            ) is
            { } bad
        )
            throw new UploadException(
                400,
                "Invalid target",
                $"every target needs a name and a benchmark pattern (got '{bad.Name}')",
                "run",
                "$.targets"
            );

        // Only the default branch's own runs declare the project's targets; a pull request's perf.json is judged on its
        // own runs and cannot loosen or remove the targets main is held to.
        var declaresTargets =
            m.PullRequest is null && RunRoles.Parse(m.Role) == RunRole.Head && m.Branch == project.DefaultBranch;
        var created = await writer.WriteAsync(
            new RunWrite(
                project.Id,
                m.Project,
                profile.Id,
                m,
                idempotencyKey,
                upload.Files,
                parsed,
                poster,
                declaresTargets
            ),
            ct
        );
        activity?.SetTag(PerfTelemetry.RunIdTag, created.RunId);
        if (!created.Duplicate)
            PerfTelemetry.RunIngested(m.Profile, created.Results, System.Diagnostics.Stopwatch.GetElapsedTime(started));
        // Also on a duplicate: if the first post stored the run but failed before queueing its analysis, the retry
        // queues it. Analysis is idempotent.
        await AnalysisRequests.EnqueueAsync(db, created.RunId, ct);
        logger.LogInformation(
            "Stored run {RunId} of {Project} at {Commit} on {Profile}: {Benchmarks} benchmarks, {Results} results (duplicate: {Duplicate})",
            created.RunId,
            m.Project,
            m.Commit,
            m.Profile,
            created.Benchmarks,
            created.Results,
            created.Duplicate
        );
        return created;
    }
}
