using System.Net.Http.Headers;
using System.Text;

namespace PerfService.FaultTests.Infrastructure;

/// <summary>
/// A multipart/form-data body assembled byte by byte, so that a test can put what HttpClient never would into it:
/// invalid UTF-8 in a part or a file name, control characters, a body cut short, a missing boundary.
/// </summary>
public sealed class RawMultipart
{
    public const string Boundary = "----perf-faults-boundary-7d1f";
    private readonly MemoryStream _body = new();

    public RawMultipart Part(string name, byte[] content, byte[]? fileName = null, string contentType = "application/octet-stream")
    {
        Ascii($"--{Boundary}\r\nContent-Disposition: form-data; name=\"{name}\"");
        if (fileName is not null)
        {
            Ascii("; filename=\"");
            _body.Write(fileName);
            Ascii("\"");
        }
        Ascii($"\r\nContent-Type: {contentType}\r\n\r\n");
        _body.Write(content);
        Ascii("\r\n");
        return this;
    }

    public RawMultipart Run(byte[] json) => Part("run", json, contentType: "application/json");

    public RawMultipart File(string name, byte[] content) => Part("files", content, Encoding.UTF8.GetBytes(name));

    public byte[] Bytes(bool close = true)
    {
        var copy = new MemoryStream();
        _body.Position = 0;
        _body.CopyTo(copy);
        if (close) copy.Write(Encoding.ASCII.GetBytes($"--{Boundary}--\r\n"));
        return copy.ToArray();
    }

    public static HttpContent Content(byte[] body, string? boundary = Boundary)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(boundary is null ? "multipart/form-data" : $"multipart/form-data; boundary={boundary}");
        return content;
    }

    public HttpContent Content() => Content(Bytes());

    private void Ascii(string text) => _body.Write(Encoding.ASCII.GetBytes(text));
}
