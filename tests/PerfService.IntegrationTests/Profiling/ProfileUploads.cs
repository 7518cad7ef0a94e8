using System.Text;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using PerfService.Data.Entities;

namespace PerfService.IntegrationTests.Profiling;

/// <summary>Speaks POST /api/v1/profiles as the agent does: a "profile" JSON part and the native "file" part.</summary>
internal static class ProfileUploads
{
    public const string Suite = "fibers";

    public static MultipartFormDataContent Body(ProfileUploadMetadata metadata, byte[] file, string? metadataJson = null)
    {
        var content = new MultipartFormDataContent();
        var json = new StringContent(metadataJson ?? JsonSerializer.Serialize(metadata, JsonSerializerOptions.Web), Encoding.UTF8, "application/json");
        content.Add(json, "profile");
        content.Add(new ByteArrayContent(file), "file", "profile.bin");
        return content;
    }

    public static Task<HttpResponseMessage> PostAsync(HttpClient client, long jobId, long agentId, string benchmark, string role, string folded,
        string format = "folded") =>
        client.PostAsync("/api/v1/profiles", Body(new ProfileUploadMetadata(jobId, agentId, Suite, benchmark, role, format), Encoding.UTF8.GetBytes(folded)));

    /// <summary>A profiling job of <paramref name="benchmark"/>, queued as the scheduler queues it (pinned to no agent).</summary>
    public static Task<long> QueueAsync(PerfServiceApp app, string project, string profile, string benchmark, int? pullRequest = 1) =>
        app.WithDbAsync(async db =>
        {
            var scheduler = new global::PerfService.AgentJobs.JobScheduler(db, app.Services.GetRequiredService<global::PerfService.AgentJobs.JobQueue>(),
                app.Services.GetRequiredService<Microsoft.Extensions.Options.IOptions<global::PerfService.AgentJobs.JobOptions>>(), TimeProvider.System);
            var projectId = await db.Projects.Where(p => p.Slug == project).Select(p => p.Id).SingleAsync();
            var profileId = await db.Profiles.Where(p => p.Name == profile).Select(p => p.Id).SingleAsync();
            var job = scheduler.AddProfiling(projectId, profileId, "abcd0001", "abcd0000", null, pullRequest, null, null,
                [new ProfileTarget(Suite, benchmark)], untrusted: false, held: false);
            await db.SaveChangesAsync();
            return job.Id;
        });

    /// <summary>Folded stacks where <paramref name="hot"/> holds <paramref name="share"/> of <paramref name="samples"/>.</summary>
    public static string Folded(string hot, double share, int samples = 2000)
    {
        var hotSamples = (int)(samples * share);
        return $"Main;Bench.Run;{hot} [OptimizedTier1] {hotSamples}\nMain;Bench.Run;Parse [QuickJitted] {samples - hotSamples}\n";
    }
}

/// <summary>How the service writes its JSON: enums by name.</summary>
internal static class ReportJson
{
    public static readonly JsonSerializerOptions Options = new(JsonSerializerDefaults.Web) { Converters = { new System.Text.Json.Serialization.JsonStringEnumConverter() } };
}
