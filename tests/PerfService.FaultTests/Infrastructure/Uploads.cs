using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using PerfService.Agents.Client;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;

namespace PerfService.FaultTests.Infrastructure;

/// <summary>Runs to post: generic JSON result files (see GENERIC_JSON.md), posted with the agent's own multipart writer.</summary>
public static class Uploads
{
    public static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    /// <summary>A generic JSON file with <paramref name="results"/> benchmarks of <paramref name="samples"/> samples each.</summary>
    public static byte[] GenericJson(int results, int samples, int seed, string prefix = "Fault.Bench")
    {
        var random = new Random(seed);
        var sb = new StringBuilder("{\"results\":[");
        for (var i = 0; i < results; i++)
        {
            if (i > 0) sb.Append(',');
            var center = 100 + i * 7.5;
            sb.Append("{\"benchmark\":\"").Append(prefix).Append('.').Append(i % 10).Append(".Case").Append(i)
                .Append("\",\"parameters\":{\"size\":").Append(1 << (i % 12)).Append("},\"unit\":\"ns\",\"samples\":[");
            for (var s = 0; s < samples; s++)
            {
                if (s > 0) sb.Append(',');
                sb.Append((center * (1 + 0.05 * (2 * random.NextDouble() - 1))).ToString("0.###", System.Globalization.CultureInfo.InvariantCulture));
            }
            sb.Append("]}");
        }
        return Encoding.UTF8.GetBytes(sb.Append("]}").ToString());
    }

    /// <summary>A 40-hex commit id derived from a label, distinct per label.</summary>
    public static string Commit(string label) => Convert.ToHexStringLower(SHA1.HashData(Encoding.UTF8.GetBytes(label)));

    public static RunMetadata Metadata(string project, string commit, string profile = "m1-pro") => new()
    {
        Project = project,
        Commit = commit,
        Branch = "main",
        Profile = profile,
        Suite = "faults",
        Format = "json",
    };

    public static async Task<PostOutcome> PostAsync(HttpClient http, RunMetadata run, string? key, params (string Path, byte[] Content)[] files)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "api/v1/runs") { Content = RunMultipart.Create(run, [.. files.Select(f => new Artifact(f.Path, f.Content))]) };
        if (key is not null) request.Headers.Add("Idempotency-Key", key);
        try
        {
            using var response = await http.SendAsync(request);
            if (response.IsSuccessStatusCode)
                return new PostOutcome(response.StatusCode, await response.Content.ReadFromJsonAsync<RunCreated>(Json), null);
            return new PostOutcome(response.StatusCode, null, await response.Content.ReadAsStringAsync());
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException or IOException)
        {
            return new PostOutcome(null, null, $"{e.GetType().Name}: {e.Message}");
        }
    }

    public static async Task CreateProjectAsync(HttpClient admin, string slug, string? repositoryUrl = null)
    {
        var response = await admin.PostAsJsonAsync("api/v1/projects", new { slug, name = slug, isPublic = true, repositoryUrl });
        if (response.StatusCode != HttpStatusCode.Created)
            throw new InvalidOperationException($"creating project {slug}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
    }
}

/// <summary>What a client saw for one post: a status (null when the connection failed) and the run when acknowledged.</summary>
public sealed record PostOutcome(HttpStatusCode? Status, RunCreated? Run, string? Error)
{
    public bool Acknowledged => Status is HttpStatusCode.Created or HttpStatusCode.OK && Run is not null;
    public override string ToString() => Status is null ? Error ?? "no answer" : $"{(int)Status.Value} {Error}";
}
