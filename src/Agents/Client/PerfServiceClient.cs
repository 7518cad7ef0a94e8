using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;

namespace PerfService.Agents.Client;

/// <summary>
/// The service's agent API and run upload. Returns <see cref="ApiResult{T}"/> instead of throwing, so that the
/// state machine decides what a failure means. The HttpClient has no timeout of its own: each call sets one
/// (the claim is a long poll and must outlive its wait; an upload may be large).
/// </summary>
public sealed class PerfServiceClient(HttpClient http)
{
    public static readonly JsonSerializerOptions Json = JsonSerializerOptions.Web;
    private static readonly TimeSpan _callTimeout = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan _uploadTimeout = TimeSpan.FromMinutes(10);

    public static HttpClient CreateHttpClient(string server, string token, HttpMessageHandler? handler = null)
    {
        var client = handler is null ? new HttpClient() : new HttpClient(handler);
        client.BaseAddress = new Uri(server.EndsWith('/') ? server : server + "/");
        client.Timeout = Timeout.InfiniteTimeSpan;
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        client.DefaultRequestHeaders.UserAgent.Add(new ProductInfoHeaderValue("perf-agent", "1.0"));
        return client;
    }

    public Task<ApiResult<RegisterAgentResponse>> RegisterAsync(RegisterAgentRequest request, CancellationToken ct) =>
        SendAsync<RegisterAgentResponse>(() => Post("api/v1/agents/register", request), _callTimeout, ct);

    public Task<ApiResult<JobAssignment>> ClaimAsync(long agentId, int waitSeconds, CancellationToken ct) =>
        SendAsync<JobAssignment>(
            () => Post($"api/v1/agents/{agentId}/claim?waitSeconds={waitSeconds}", null),
            TimeSpan.FromSeconds(waitSeconds + 30),
            ct
        );

    public Task<ApiResult<HeartbeatResponse>> HeartbeatAsync(
        long jobId,
        HeartbeatRequest request,
        CancellationToken ct
    ) => SendAsync<HeartbeatResponse>(() => Post($"api/v1/jobs/{jobId}/heartbeat", request), _callTimeout, ct);

    public Task<ApiResult<object>> CompleteAsync(long jobId, CompleteJobRequest request, CancellationToken ct) =>
        SendAsync<object>(() => Post($"api/v1/jobs/{jobId}/complete", request), _callTimeout, ct);

    /// <summary>POST /api/v1/runs: the metadata as the "run" part and one "files" part per file, named by its path
    /// relative to the upload root. The same key makes a repeat a no-op on the service.</summary>
    public Task<ApiResult<RunCreated>> PostRunAsync(
        RunMetadata run,
        IReadOnlyList<Artifact> files,
        string idempotencyKey,
        CancellationToken ct
    ) =>
        SendAsync<RunCreated>(
            () =>
            {
                var request = new HttpRequestMessage(HttpMethod.Post, "api/v1/runs")
                {
                    Content = RunMultipart.Create(run, files),
                };
                request.Headers.Add("Idempotency-Key", idempotencyKey);
                return request;
            },
            _uploadTimeout,
            ct
        );

    /// <summary>POST /api/v1/profiles: a profile of one benchmark on one side, in its native format. A repeat with the
    /// same key (a re-run job) is answered with the first profile.</summary>
    public Task<ApiResult<ProfileCreated>> PostProfileAsync(
        ProfileUploadMetadata profile,
        Artifact file,
        string idempotencyKey,
        CancellationToken ct
    ) =>
        SendAsync<ProfileCreated>(
            () =>
            {
                var request = new HttpRequestMessage(HttpMethod.Post, "api/v1/profiles")
                {
                    Content = RunMultipart.CreateProfile(profile, file),
                };
                request.Headers.Add("Idempotency-Key", idempotencyKey);
                return request;
            },
            _uploadTimeout,
            ct
        );

    // Buffered rather than streamed JSON: a Content-Length instead of chunked encoding suits every proxy.
    private static HttpRequestMessage Post(string path, object? body) =>
        new(HttpMethod.Post, path)
        {
            Content = body is null
                ? null
                : new StringContent(
                    JsonSerializer.Serialize(body, body.GetType(), Json),
                    Encoding.UTF8,
                    "application/json"
                ),
        };

    private async Task<ApiResult<T>> SendAsync<T>(
        Func<HttpRequestMessage> create,
        TimeSpan timeout,
        CancellationToken ct
    )
    {
        using var timeoutCts = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeoutCts.CancelAfter(timeout);
        try
        {
            using var request = create();
            using var response = await http.SendAsync(request, timeoutCts.Token);
            if (response.StatusCode == HttpStatusCode.NoContent)
                return new(ApiStatus.NoContent, HttpStatus: 204);
            if (response.IsSuccessStatusCode)
            {
                var value =
                    typeof(T) == typeof(object)
                        ? default
                        : await response.Content.ReadFromJsonAsync<T>(Json, timeoutCts.Token);
                return new(ApiStatus.Ok, value, HttpStatus: (int)response.StatusCode);
            }
            var error = await ProblemText.ReadAsync(response, timeoutCts.Token);
            return new(Classify(response.StatusCode), default, error, (int)response.StatusCode);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            return new(ApiStatus.Transient, default, $"no answer within {timeout.TotalSeconds:0} s");
        }
        catch (Exception e) when (e is HttpRequestException or IOException)
        {
            return new(ApiStatus.Transient, default, e.Message);
        }
        catch (JsonException e)
        {
            // A 2xx with a body we cannot read: most likely a proxy page, so try again later.
            return new(ApiStatus.Transient, default, $"unreadable answer: {e.Message}");
        }
    }

    public static ApiStatus Classify(HttpStatusCode status) =>
        (int)status switch
        {
            401 or 403 => ApiStatus.Unauthorized,
            404 => ApiStatus.NotFound,
            409 => ApiStatus.Conflict,
            408 or 429 => ApiStatus.Transient,
            >= 500 => ApiStatus.Transient,
            _ => ApiStatus.Rejected,
        };
}
