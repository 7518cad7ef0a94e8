using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace PerfService.Agents.Tests.Support;

public sealed record MultipartPart(string Name, string? FileName, string? ContentType, byte[] Content)
{
    public string Text => Encoding.UTF8.GetString(Content);
}

public sealed record RecordedRequest(string Method, string Path, string Query, IReadOnlyDictionary<string, string> Headers, byte[] Body)
{
    public T Json<T>() => JsonSerializer.Deserialize<T>(Body, JsonSerializerOptions.Web)!;

    public string? Header(string name) => Headers.TryGetValue(name, out var v) ? v : null;

    /// <summary>A minimal multipart/form-data reader (the test project has no ASP.NET to borrow one from).</summary>
    public IReadOnlyList<MultipartPart> Parts()
    {
        var boundary = Regex.Match(Header("Content-Type") ?? "", "boundary=\"?([^\";]+)\"?").Groups[1].Value;
        // Latin-1 maps bytes 1:1 to chars, so binary content survives the split.
        var text = Encoding.Latin1.GetString(Body);
        var parts = new List<MultipartPart>();
        foreach (var chunk in text.Split("--" + boundary).Skip(1))
        {
            if (chunk.StartsWith("--", StringComparison.Ordinal)) break;
            var split = chunk.IndexOf("\r\n\r\n", StringComparison.Ordinal);
            var head = chunk[..split];
            var content = chunk[(split + 4)..^2]; // drop the CRLF before the next boundary
            string? Find(string pattern) => Regex.Match(head, pattern, RegexOptions.IgnoreCase) is { Success: true } m ? m.Groups[1].Value : null;
            parts.Add(new MultipartPart(
                Find("name=\"?([^\";\r\n]+)\"?") ?? "",
                Find("filename=\"([^\"]*)\"") ?? Find("filename=([^;\r\n]+)"),
                Find("Content-Type: ([^\r\n]+)"),
                Encoding.Latin1.GetBytes(content)));
        }
        return parts;
    }
}
