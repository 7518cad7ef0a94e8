using System.Collections.Concurrent;
using System.Net;
using System.Text;
using System.Text.Json;

namespace PerfService.Agents.Tests.Support;

public sealed record FakeResponse(int Status, object? Json = null, string? Text = null)
{
    public static FakeResponse Ok(object json) => new(200, json);
    public static readonly FakeResponse NoContent = new(204);
    public static FakeResponse Problem(int status, string title, string detail) =>
        new(status, new { type = "about:blank", title, detail, status });
}

/// <summary>A tiny HTTP server on 127.0.0.1 standing in for PerfService: records every request and answers through
/// the test's handler.</summary>
public sealed class FakeService : IDisposable
{
    private readonly HttpListener _listener;
    private readonly Func<RecordedRequest, Task<FakeResponse>> _handler;
    private readonly CancellationTokenSource _stop = new();

    public FakeService(Func<RecordedRequest, FakeResponse> handler) : this(r => Task.FromResult(handler(r))) { }

    /// <param name="ports">Where the ports to try come from (a test gives a taken one first); free ones by default.</param>
    public FakeService(Func<RecordedRequest, Task<FakeResponse>> handler, Func<int>? ports = null)
    {
        _handler = handler;
        (_listener, Url) = Listen(ports ?? Ports.Free);
        _ = Task.Run(LoopAsync);
    }

    // HttpListener cannot bind port 0, so a free port is asked for first; another process (a child of a parallel test)
    // can take it before the listener binds, and then another port is tried. A listener that failed to start is
    // closed by HttpListener itself, so each attempt needs a new one.
    private static (HttpListener Listener, string Url) Listen(Func<int> ports)
    {
        for (var attempt = 1; ; attempt++)
        {
            var url = $"http://127.0.0.1:{ports()}/";
            var listener = new HttpListener();
            listener.Prefixes.Add(url);
            try
            {
                listener.Start();
                return (listener, url);
            }
            catch (HttpListenerException) when (attempt < 10)
            {
                listener.Close();
            }
        }
    }

    public string Url { get; }
    public ConcurrentQueue<RecordedRequest> Requests { get; } = new();

    public IReadOnlyList<RecordedRequest> To(string pathPart) => Requests.Where(r => r.Path.Contains(pathPart, StringComparison.Ordinal)).ToList();

    private async Task LoopAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            HttpListenerContext context;
            try
            {
                context = await _listener.GetContextAsync();
            }
            catch (Exception) when (_stop.IsCancellationRequested)
            {
                return;
            }
            _ = Task.Run(() => HandleAsync(context));
        }
    }

    private async Task HandleAsync(HttpListenerContext context)
    {
        using var body = new MemoryStream();
        await context.Request.InputStream.CopyToAsync(body);
        var headers = context.Request.Headers.AllKeys.Where(k => k is not null)
            .ToDictionary(k => k!, k => context.Request.Headers[k]!, StringComparer.OrdinalIgnoreCase);
        var request = new RecordedRequest(context.Request.HttpMethod, context.Request.Url!.AbsolutePath, context.Request.Url.Query,
            headers, body.ToArray());
        Requests.Enqueue(request);
        FakeResponse response;
        try
        {
            response = await _handler(request);
        }
        catch (Exception e)
        {
            response = new FakeResponse(500, Text: e.ToString());
        }
        context.Response.StatusCode = response.Status;
        var bytes = response.Json is not null ? JsonSerializer.SerializeToUtf8Bytes(response.Json, JsonSerializerOptions.Web)
            : response.Text is not null ? Encoding.UTF8.GetBytes(response.Text) : [];
        if (response.Json is not null) context.Response.ContentType = response.Status >= 400 ? "application/problem+json" : "application/json";
        try
        {
            if (bytes.Length > 0) await context.Response.OutputStream.WriteAsync(bytes);
            context.Response.Close();
        }
        catch (HttpListenerException)
        {
            // The client gave up (a cancelled long poll).
        }
    }

    public void Dispose()
    {
        _stop.Cancel();
        _listener.Close();
    }
}
