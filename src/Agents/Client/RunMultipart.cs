using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;

namespace PerfService.Agents.Client;

/// <summary>The multipart bodies of POST /api/v1/runs and POST /api/v1/profiles.</summary>
public static class RunMultipart
{
    public static MultipartFormDataContent Create(RunMetadata run, IReadOnlyList<Artifact> files)
    {
        var content = new MultipartFormDataContent { Json("run", run) };
        foreach (var file in files)
            content.Add(File("files", file));
        return content;
    }

    /// <summary>A profile: its metadata as the "profile" part and the native file as "file".</summary>
    public static MultipartFormDataContent CreateProfile(ProfileUploadMetadata profile, Artifact file) =>
        new() { Json("profile", profile), File("file", file) };

    private static StringContent Json<T>(string name, T value)
    {
        var json = new StringContent(
            JsonSerializer.Serialize(value, PerfServiceClient.Json),
            Encoding.UTF8,
            "application/json"
        );
        json.Headers.ContentDisposition = new ContentDispositionHeaderValue("form-data") { Name = $"\"{name}\"" };
        return json;
    }

    private static ReadOnlyMemoryContent File(string name, Artifact file)
    {
        var part = new ReadOnlyMemoryContent(file.Content);
        part.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
        var path = file.Path.Replace('\\', '/');
        part.Headers.ContentDisposition = new ContentDispositionHeaderValue("form-data")
        {
            Name = $"\"{name}\"",
            FileName = "\"" + path.Replace("\\", "\\\\").Replace("\"", "\\\"") + "\"",
            // Non-ASCII names (criterion names its folders after the benchmarks) travel in RFC 5987 form too.
            FileNameStar = path.All(char.IsAscii) ? null : path,
        };
        return part;
    }
}
