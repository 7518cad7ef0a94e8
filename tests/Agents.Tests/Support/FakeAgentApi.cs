using System.Collections.Concurrent;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Tests.Support;

/// <summary>The service's agent API as the agent sees it, with knobs for the failure cases.</summary>
public sealed class FakeAgentApi : IDisposable
{
    private readonly ConcurrentQueue<JobAssignment> _jobs = new();
    private readonly SemaphoreSlim _enqueued = new(0);
    private long _runIds = 100;

    public FakeAgentApi() => Service = new FakeService(HandleAsync);

    public FakeService Service { get; }
    public string Url => Service.Url;

    /// <summary>Answer to a heartbeat; default: keep going.</summary>
    public Func<RecordedRequest, FakeResponse> Heartbeat { get; set; } =
        _ => FakeResponse.Ok(new HeartbeatResponse(false, DateTimeOffset.UtcNow.AddMinutes(1), null));

    /// <summary>Answer to a run upload, before the default 201.</summary>
    public Func<RecordedRequest, FakeResponse?> Runs { get; set; } = _ => null;

    /// <summary>Answer to a profile upload, before the default 201.</summary>
    public Func<RecordedRequest, FakeResponse?> Profiles { get; set; } = _ => null;

    /// <summary>Answer to a job's completion, before the default 204.</summary>
    public Func<RecordedRequest, FakeResponse?> Complete { get; set; } = _ => null;

    public void Enqueue(JobAssignment job)
    {
        _jobs.Enqueue(job);
        _enqueued.Release();
    }

    public IReadOnlyList<RecordedRequest> Posts => Service.To("/api/v1/runs");
    public IReadOnlyList<RecordedRequest> ProfilePosts => Service.To("/api/v1/profiles");
    public IReadOnlyList<RecordedRequest> Heartbeats => Service.To("/heartbeat");
    public IReadOnlyList<RecordedRequest> Completes => Service.To("/complete");

    private async Task<FakeResponse> HandleAsync(RecordedRequest r)
    {
        if (r.Path == "/api/v1/agents/register")
        {
            var request = r.Json<RegisterAgentRequest>();
            return FakeResponse.Ok(new RegisterAgentResponse(7, request.Profile, false, null));
        }
        if (r.Path == "/api/v1/agents/7/claim")
        {
            // The service's long poll, kept short: an empty claim is held open until a job is queued, as the real one does.
            if (_jobs.TryDequeue(out var job) || (await _enqueued.WaitAsync(200) && _jobs.TryDequeue(out job)))
                return FakeResponse.Ok(job);
            return FakeResponse.NoContent;
        }
        if (r.Path.EndsWith("/heartbeat", StringComparison.Ordinal)) return Heartbeat(r);
        if (r.Path.EndsWith("/complete", StringComparison.Ordinal)) return Complete(r) ?? new FakeResponse(204);
        if (r.Path == "/api/v1/runs")
            return Runs(r) ?? new FakeResponse(201, new RunCreated(Interlocked.Increment(ref _runIds), false, 1, 3));
        if (r.Path == "/api/v1/profiles")
            return Profiles(r) ?? new FakeResponse(201, new ProfileCreated(Interlocked.Increment(ref _runIds)));
        return FakeResponse.Problem(404, "Not Found", r.Path);
    }

    public void Dispose() => Service.Dispose();
}
