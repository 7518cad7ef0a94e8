using System.Security.Claims;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using Npgsql;
using PerfService.Access;
using PerfService.AgentJobs;
using PerfService.Core.Contracts;
using PerfService.Core.Profiles;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Ingestion;

namespace PerfService.Profiling;

/// <summary>
/// <c>POST /api/v1/profiles</c>: an agent posts the profile of one benchmark on one side of the profiling job it holds.
/// The job must be a profiling job claimed by that agent and still running, the benchmark one it was asked for; the
/// file is bounded and read with <see cref="ProfileReader"/> under <see cref="ProfileOptions"/> before anything is
/// stored.
/// </summary>
public static class ProfileUpload
{
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web) { MaxDepth = 8 };

    public static async Task<IResult> PostAsync(
        HttpContext http,
        PerfDbContext db,
        UploadGate gate,
        IOptions<ProfileOptions> options,
        TimeProvider time,
        CancellationToken ct
    )
    {
        using var slot = await gate.EnterAsync(ct);
        if (slot is null)
        {
            http.Response.Headers.RetryAfter = "5";
            return TypedResults.Problem(
                "too many uploads are being stored at once; retry after the Retry-After delay",
                statusCode: 503,
                title: "Uploads busy"
            );
        }
        try
        {
            return await StoreAsync(http, db, options.Value, time, ct);
        }
        catch (ProfileUploadException e)
        {
            return TypedResults.Problem(
                e.Message,
                statusCode: e.Status,
                title: e.Title,
                extensions: new Dictionary<string, object?> { ["field"] = e.Field }
            );
        }
    }

    private static async Task<IResult> StoreAsync(
        HttpContext http,
        PerfDbContext db,
        ProfileOptions options,
        TimeProvider time,
        CancellationToken ct
    )
    {
        var form = await ReadFormAsync(http.Request, options, ct);
        var metadata = ReadMetadata(form);
        if (!RunRoles.TryParse(metadata.Role, out var role) || metadata.Role is null)
            throw new ProfileUploadException(
                400,
                "Invalid profile",
                "role",
                $"role must be 'base' or 'head', not '{metadata.Role}'"
            );
        if (!ProfileFormats.TryParse(metadata.Format, out var format))
            throw new ProfileUploadException(
                400,
                "Invalid profile",
                "format",
                $"format must be one of {string.Join(", ", Enum.GetValues<ProfileFormat>().Select(f => f.Name()))}, not '{metadata.Format}'"
            );
        if (metadata.Round is < 1 or > 10_000)
            throw new ProfileUploadException(400, "Invalid profile", "round", "round must be 1 to 10000");

        var job = await db
            .Jobs.AsNoTracking()
            .Include(j => j.Project)
            .FirstOrDefaultAsync(j => j.Id == metadata.JobId, ct);
        var decision = job is null
            ? AccessDecision.Hidden
            : ProjectAccess.Decide(http.User, job.ProjectId, job.Project!.IsPublic, acting: true);
        if (decision == AccessDecision.Hidden)
            throw new ProfileUploadException(
                404,
                "Not found",
                "jobId",
                $"job {metadata.JobId} does not exist or is not visible to this token"
            );
        if (decision == AccessDecision.Forbidden)
            throw new ProfileUploadException(
                403,
                "Forbidden",
                "jobId",
                $"this token is bound to another project and may not act on job {metadata.JobId}"
            );
        var agent = await db.Agents.AsNoTracking().FirstOrDefaultAsync(a => a.Id == metadata.AgentId, ct);
        if (agent is null || !AgentJobsApi.OwnsAgent(http.User, agent))
            throw new ProfileUploadException(
                403,
                "Forbidden",
                "agentId",
                $"agent {metadata.AgentId} is not this token's"
            );
        if (job!.Kind != JobKind.Profile || job.Profiling is null)
            throw new ProfileUploadException(
                409,
                "Not a profiling job",
                "jobId",
                $"job {job.Id} measures; only a profiling job's agent posts profiles"
            );
        // A repeat of an upload this agent made (its answer lost, or posted again from the agent's spool) is answered
        // with the stored profile, even once the job has finished: the agent keeps its copy until it hears back.
        if (await StoredAsync(db, job.Id, metadata, role, ct) is { } stored && stored.AgentId == agent.Id)
            return TypedResults.Ok(new ProfileCreated(stored.Id, Duplicate: true));
        if (job.AgentId != agent.Id || job.State != JobState.Running)
            throw new ProfileUploadException(
                409,
                "Job not held",
                "jobId",
                $"job {job.Id} is not running on agent {agent.Id}"
            );
        if (!job.Profiling.Targets.Any(t => t.Suite == metadata.Suite && t.Benchmark == metadata.Benchmark))
            throw new ProfileUploadException(
                400,
                "Invalid profile",
                "benchmark",
                $"job {job.Id} did not ask for a profile of '{metadata.Benchmark}' in suite '{metadata.Suite}'"
            );

        var file =
            form.Files.GetFile("file")
            ?? throw new ProfileUploadException(
                400,
                "Invalid profile",
                "file",
                "the 'file' part (the profiler's native file) is missing"
            );
        if (file.Length > options.MaxUploadBytes)
            throw new ProfileUploadException(
                413,
                "Profile too large",
                "file",
                $"the file is {file.Length} bytes, at most {options.MaxUploadBytes}"
            );
        var native = new byte[file.Length];
        await using (var stream = file.OpenReadStream())
            await stream.ReadExactlyAsync(native, ct);
        FoldedStacks folded;
        try
        {
            folded = FrameNormaliser.Normalise(
                ProfileReader.Read(new MemoryStream(native, writable: false), format, options.Limits)
            );
        }
        catch (ProfileFormatException e)
        {
            throw new ProfileUploadException(
                400,
                "Unreadable profile",
                "file",
                $"the file is not a readable {format.Name()} profile: {e.Message}"
            );
        }
        var foldedGzip = FoldedGzip(folded);
        if (foldedGzip.Length > options.MaxFoldedBytes)
            throw new ProfileUploadException(
                413,
                "Profile too large",
                "file",
                $"its folded stacks take {foldedGzip.Length} bytes compressed, at most {options.MaxFoldedBytes}"
            );

        var profile = new CpuProfile
        {
            JobId = job.Id,
            ProjectId = job.ProjectId,
            ProfileId = job.ProfileId,
            AgentId = agent.Id,
            Suite = metadata.Suite,
            Benchmark = metadata.Benchmark,
            Role = role,
            Round = metadata.Round,
            Format = format,
            NativeSize = native.Length,
            NativeGzip = Gzip.Compress(native),
            FoldedGzip = foldedGzip,
            Samples = folded.TotalSamples,
            CreatedAt = time.GetUtcNow(),
        };
        db.CpuProfiles.Add(profile);
        try
        {
            await db.SaveChangesAsync(ct);
        }
        catch (DbUpdateException e)
            when (e.InnerException is PostgresException { SqlState: PostgresErrorCodes.UniqueViolation })
        {
            // The slot was filled meanwhile (a repeat racing the first post, or an earlier attempt of the job): the
            // first profile stays the one stored.
            var first =
                await StoredAsync(db, job.Id, metadata, role, ct)
                ?? throw new InvalidOperationException("a profile slot's first upload vanished");
            return TypedResults.Ok(new ProfileCreated(first.Id, Duplicate: true));
        }
        return TypedResults.Created($"/api/v1/profiles/{profile.Id}/native", new ProfileCreated(profile.Id));
    }

    private sealed record StoredSlot(long Id, long? AgentId);

    /// <summary>The profile already stored in this upload's slot of the job, if any.</summary>
    private static Task<StoredSlot?> StoredAsync(
        PerfDbContext db,
        long jobId,
        ProfileUploadMetadata metadata,
        RunRole role,
        CancellationToken ct
    ) =>
        db
            .CpuProfiles.AsNoTracking()
            .Where(p =>
                p.JobId == jobId
                && p.Benchmark == metadata.Benchmark
                && p.Suite == metadata.Suite
                && p.Role == role
                && p.Round == metadata.Round
            )
            .Select(p => new StoredSlot(p.Id, p.AgentId))
            .FirstOrDefaultAsync(ct);

    public static byte[] FoldedGzip(FoldedStacks folded)
    {
        var text = new StringWriter();
        folded.Write(text);
        return Gzip.Compress(Encoding.UTF8.GetBytes(text.ToString()));
    }

    private static async Task<IFormCollection> ReadFormAsync(
        HttpRequest request,
        ProfileOptions options,
        CancellationToken ct
    )
    {
        var max = options.MaxUploadBytes + 64 * 1024;
        if (request.ContentLength > max)
            throw new ProfileUploadException(
                413,
                "Profile too large",
                "file",
                $"the body is {request.ContentLength} bytes, at most {max}"
            );
        if (request.HttpContext.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } size)
            size.MaxRequestBodySize = max;
        if (!request.HasFormContentType)
            throw new ProfileUploadException(
                415,
                "Unsupported media type",
                "profile",
                "expected multipart/form-data with a 'profile' part and a 'file' part"
            );
        try
        {
            return await request.ReadFormAsync(
                new FormOptions
                {
                    MultipartBodyLengthLimit = max,
                    ValueLengthLimit = 64 * 1024,
                    ValueCountLimit = 8,
                },
                ct
            );
        }
        catch (Exception e)
            when (e is InvalidDataException or BadHttpRequestException or IOException
                && !request.HttpContext.RequestAborted.IsCancellationRequested
            )
        {
            var tooLarge =
                e.Message.Contains("limit", StringComparison.OrdinalIgnoreCase)
                || e is BadHttpRequestException { StatusCode: 413 };
            throw new ProfileUploadException(
                tooLarge ? 413 : 400,
                tooLarge ? "Profile too large" : "Malformed upload",
                "file",
                $"the multipart body could not be read: {e.Message}"
            );
        }
    }

    private static ProfileUploadMetadata ReadMetadata(IFormCollection form)
    {
        string? json = form["profile"];
        if (json is null && form.Files.GetFile("profile") is { Length: <= 64 * 1024 } part)
        {
            using var reader = new StreamReader(part.OpenReadStream());
            json = reader.ReadToEnd();
        }
        if (string.IsNullOrWhiteSpace(json))
            throw new ProfileUploadException(
                400,
                "Missing metadata",
                "profile",
                "the 'profile' part (ProfileUploadMetadata as JSON) is missing"
            );
        ProfileUploadMetadata? metadata;
        try
        {
            metadata = JsonSerializer.Deserialize<ProfileUploadMetadata>(json, Json);
        }
        catch (JsonException e)
        {
            throw new ProfileUploadException(
                400,
                "Malformed metadata",
                "profile",
                $"the 'profile' part is not valid JSON: {e.Message}"
            );
        }
        if (metadata is null)
            throw new ProfileUploadException(400, "Missing metadata", "profile", "the 'profile' part is null");
        foreach (
            var (field, value, max) in new[] { ("suite", metadata.Suite, 200), ("benchmark", metadata.Benchmark, 1000) }
        )
        {
            if (string.IsNullOrWhiteSpace(value) || value.Length > max || Hosting.NulText.In(value))
                throw new ProfileUploadException(
                    400,
                    "Invalid profile",
                    field,
                    $"{field} must be 1 to {max} characters without NUL"
                );
        }
        return metadata;
    }
}

public sealed class ProfileUploadException(int status, string title, string field, string detail) : Exception(detail)
{
    public int Status { get; } = status;
    public string Title { get; } = title;
    public string Field { get; } = field;
}
