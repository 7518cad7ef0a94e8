using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json;
using PerfService.Core.Contracts;

namespace PerfService.LoadTest;

/// <summary>The HTTP side: one client per token, and one call = one recorded latency with its outcome.</summary>
public sealed class Http(LoadOptions options, Latencies latencies) : IDisposable
{
    public static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    private readonly SocketsHttpHandler _handler = new()
    {
        PooledConnectionLifetime = TimeSpan.FromMinutes(5),
        MaxConnectionsPerServer = 1024,
        ConnectTimeout = TimeSpan.FromSeconds(10),
    };

    public HttpClient Ingest => _ingest ??= Client(options.IngestToken);
    public HttpClient Reader => _reader ??= Client(options.AdminToken);
    private HttpClient? _ingest;
    private HttpClient? _reader;

    private HttpClient Client(string token)
    {
        var client = new HttpClient(_handler, disposeHandler: false) { BaseAddress = options.Server, Timeout = TimeSpan.FromSeconds(options.TimeoutSeconds) };
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        client.DefaultRequestHeaders.UserAgent.Add(new ProductInfoHeaderValue("perf-loadtest", "1.0"));
        return client;
    }

    public sealed record PostResult(HttpStatusCode? Status, RunCreated? Run, string? Error);

    /// <summary>POST /api/v1/runs; the error is null for a 2xx whose body could be read.</summary>
    public async Task<PostResult> PostRunAsync(string kind, RunMetadata metadata, Payload payload, string key, CancellationToken ct)
    {
        using var content = new MultipartFormDataContent
        {
            { JsonContent.Create(metadata, options: Json), "run" },
        };
        foreach (var file in payload.Files)
        {
            var part = new ReadOnlyMemoryContent(file.Content);
            part.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
            content.Add(part, "files", file.Path);
        }
        using var request = new HttpRequestMessage(HttpMethod.Post, "api/v1/runs") { Content = content };
        request.Headers.Add("Idempotency-Key", key);
        var clock = Stopwatch.StartNew();
        PostResult result;
        try
        {
            using var response = await Ingest.SendAsync(request, ct);
            if (response.IsSuccessStatusCode)
            {
                var run = await response.Content.ReadFromJsonAsync<RunCreated>(Json, ct);
                result = new PostResult(response.StatusCode, run, run is null ? "unreadable 2xx body" : null);
            }
            else
            {
                var body = await response.Content.ReadAsStringAsync(ct);
                result = new PostResult(response.StatusCode, null, $"http {(int)response.StatusCode}");
                Samples.Keep(result.Error!, body);
                ServerErrors.Keep(response.StatusCode, kind, $"POST api/v1/runs (Idempotency-Key {key})", body);
            }
        }
        catch (Exception e) when (Failure(e, ct) is { } error)
        {
            result = new PostResult(null, null, error);
        }
        latencies.Record(kind, clock.Elapsed, result.Error);
        return result;
    }

    /// <summary>GET of a read endpoint; returns the body of a 200, null otherwise.</summary>
    public async Task<string?> GetAsync(string kind, string path, CancellationToken ct)
    {
        var clock = Stopwatch.StartNew();
        string? error;
        string? body = null;
        try
        {
            using var response = await Reader.GetAsync(path, ct);
            var text = await response.Content.ReadAsStringAsync(ct);
            if (response.StatusCode == HttpStatusCode.OK) body = text;
            error = response.StatusCode == HttpStatusCode.OK ? null : $"http {(int)response.StatusCode}";
            if (error is not null) Samples.Keep(error, $"{path}: {text}");
            ServerErrors.Keep(response.StatusCode, kind, $"GET {path}", text);
        }
        catch (Exception e) when (Failure(e, ct) is { } failure)
        {
            error = failure;
        }
        latencies.Record(kind, clock.Elapsed, error);
        return body;
    }

    /// <summary>Null when the exception is the run's own stop (not counted), else the error kind.</summary>
    private static string? Failure(Exception e, CancellationToken ct) => e switch
    {
        OperationCanceledException when ct.IsCancellationRequested => null,
        OperationCanceledException or TimeoutException => "timeout",
        HttpRequestException h => $"connection ({h.HttpRequestError})",
        IOException => "connection (io)",
        JsonException => "unreadable 2xx body",
        _ => null,
    };

    public void Dispose()
    {
        _ingest?.Dispose();
        _reader?.Dispose();
        _handler.Dispose();
    }
}

/// <summary>The first answer body of each error kind, to show what went wrong.</summary>
public static class Samples
{
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<string, string> _first = new();
    public static void Keep(string kind, string body) => _first.TryAdd(kind, body.Length > 300 ? body[..300] + "…" : body);
    public static IReadOnlyDictionary<string, string> All => _first;
}

/// <summary>
/// Every 5xx answer of the run, warm-up and ramp included: the service answers a client's mistake with a 4xx and its
/// own busy or broken state with a 5xx, so any 5xx fails the load test, and the report names each one.
/// </summary>
public static class ServerErrors
{
    public sealed record Entry(int Status, string Kind, string Request, string Body, DateTime At);

    private static readonly System.Collections.Concurrent.ConcurrentQueue<Entry> _all = new();

    public static void Keep(HttpStatusCode status, string kind, string request, string body)
    {
        if ((int)status < 500) return;
        _all.Enqueue(new Entry((int)status, kind, request, body.Length > 300 ? body[..300] + "…" : body, DateTime.UtcNow));
    }

    public static IReadOnlyList<Entry> All => [.. _all];
}
