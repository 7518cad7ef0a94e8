using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;

namespace PerfService.Agents.Client;

/// <summary>The multipart body of POST /api/v1/runs.</summary>
public static class RunMultipart
{
    public static MultipartFormDataContent Create(RunMetadata run, IReadOnlyList<Artifact> files)
    {
        var content = new MultipartFormDataContent();
        var json = new StringContent(JsonSerializer.Serialize(run, PerfServiceClient.Json), Encoding.UTF8, "application/json");
        json.Headers.ContentDisposition = new ContentDispositionHeaderValue("form-data") { Name = "\"run\"" };
        content.Add(json);
        foreach (var file in files)
        {
            var part = new ReadOnlyMemoryContent(file.Content);
            part.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
            var path = file.Path.Replace('\\', '/');
            part.Headers.ContentDisposition = new ContentDispositionHeaderValue("form-data")
            {
                Name = "\"files\"",
                FileName = "\"" + path.Replace("\\", "\\\\").Replace("\"", "\\\"") + "\"",
                // Non-ASCII names (criterion names its folders after the benchmarks) travel in RFC 5987 form too.
                FileNameStar = path.All(char.IsAscii) ? null : path,
            };
            content.Add(part);
        }
        return content;
    }
}
