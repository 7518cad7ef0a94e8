using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using PerfService.Ingestion;

namespace PerfService.IntegrationTests.Ingestion;

/// <summary>The upload reader with default limits, and a bare multipart request for it, without a server: for the
/// states of ASP.NET Core's form read that a real socket cannot produce on demand.</summary>
internal static class BareUploads
{
    public static readonly UploadReader Reader = new(
        Options.Create(new IngestOptions()),
        TimeProvider.System,
        NullLogger<UploadReader>.Instance
    );

    public static DefaultHttpContext Request(Stream body, CancellationToken aborted)
    {
        var http = new DefaultHttpContext { RequestAborted = aborted };
        http.Request.Method = "POST";
        http.Request.ContentType = "multipart/form-data; boundary=b";
        http.Request.Body = body;
        return http;
    }
}
