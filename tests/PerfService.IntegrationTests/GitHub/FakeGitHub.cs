using System.Collections.Concurrent;
using System.Security.Cryptography;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace PerfService.IntegrationTests.GitHub;

public sealed record GitHubCall(string Method, string Path, string Body, string? Authorization);

public sealed record FakeComment(long Id, string Repo, int Issue, string Body, string Login, DateTimeOffset CreatedAt, DateTimeOffset UpdatedAt);

public sealed record FakeStatus(long Id, string Repo, string Sha, string State, string? Description, string? TargetUrl, string Context, DateTimeOffset CreatedAt);

public enum FaultKind { ServerError, RateLimited, TooManyRequests, FailAfterProcessing, SlowAfterProcessing }

/// <summary>Answers the next request matching <see cref="Method"/> and a path containing <see cref="PathContains"/> with a failure.</summary>
public sealed record Fault(string Method, string PathContains, FaultKind Kind, int Seconds = 0);

/// <summary>
/// The slice of GitHub's REST API that PerfService uses, on Kestrel at 127.0.0.1 and a free port: the same routes,
/// status codes, error bodies and JSON shapes, authentication (tokens, and App JWTs checked against the test's public
/// key), and failures on demand (5xx, rate limits). Records every call.
/// </summary>
public sealed partial class FakeGitHub : IAsyncDisposable
{
    public const string PersonalToken = "ghp_fakePersonalToken0123456789";
    public const string AppId = "123456";

    private readonly List<Fault> _faults = [];
    private readonly ConcurrentDictionary<string, long> _installations = new();
    private WebApplication? _app;
    private long _nextId = 1_000_000;

    public string Url { get; private set; } = "";
    /// <summary>Set for GitHub App tests: JWTs must be signed by its private half.</summary>
    public RSA? AppKey { get; set; }
    public TimeSpan TokenLifetime { get; set; } = TimeSpan.FromHours(1);
    /// <summary>The personal token's user.</summary>
    public string Login { get; set; } = "perf-bot";
    public const string AppSlug = "perfservice";
    /// <summary>Who an installation token acts as, as on GitHub: the App's bot user.</summary>
    public static string BotLogin => AppSlug + "[bot]";

    public ConcurrentQueue<GitHubCall> Calls { get; } = new();
    private ConcurrentDictionary<long, FakeComment> Comments { get; } = new();
    private ConcurrentQueue<FakeStatus> Statuses { get; } = new();
    private ConcurrentDictionary<string, DateTimeOffset> IssuedTokens { get; } = new();

    public async Task StartAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseKestrel(o => o.Listen(IPAddress.Loopback, 0));
        builder.Logging.ClearProviders();
        _app = builder.Build();
        _app.Use(RecordAsync);
        _app.Use(AuthenticateAsync);
        _app.Use(FailOnDemandAsync);
        MapRoutes(_app);
        await _app.StartAsync();
        var address = _app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        Url = address.TrimEnd('/') + "/";
    }

    public void Inject(params Fault[] faults)
    {
        lock (_faults) _faults.AddRange(faults);
    }

    public IReadOnlyList<GitHubCall> CallsTo(string method, string pathContains) =>
        Calls.Where(c => c.Method == method && c.Path.Contains(pathContains, StringComparison.Ordinal)).ToList();

    public IReadOnlyList<FakeComment> CommentsOn(string repo, int issue) =>
        Comments.Values.Where(c => c.Repo.Equals(repo, StringComparison.OrdinalIgnoreCase) && c.Issue == issue).OrderBy(c => c.Id).ToList();

    public IReadOnlyList<FakeStatus> StatusesOf(string repo, string sha) =>
        Statuses.Where(s => s.Repo.Equals(repo, StringComparison.OrdinalIgnoreCase) && s.Sha == sha).ToList();

    /// <summary>A comment that exists before the test's publish, e.g. one posted by a run that crashed before saving its id.</summary>
    public FakeComment AddComment(string repo, int issue, string body, string? login = null) => SaveComment(repo, issue, body, login ?? Login);

    public void DeleteComment(long id) => Comments.TryRemove(id, out _);

    private FakeComment SaveComment(string repo, int issue, string body, string login)
    {
        var now = DateTimeOffset.UtcNow;
        var comment = new FakeComment(Interlocked.Increment(ref _nextId), repo, issue, body, login, now, now);
        Comments[comment.Id] = comment;
        return comment;
    }

    private async Task RecordAsync(HttpContext http, RequestDelegate next)
    {
        using var reader = new StreamReader(http.Request.Body);
        var body = await reader.ReadToEndAsync();
        http.Items["body"] = body;
        Calls.Enqueue(new GitHubCall(http.Request.Method, http.Request.Path.Value ?? "", body, http.Request.Headers.Authorization.FirstOrDefault()));
        http.Response.Headers["X-GitHub-Request-Id"] = $"FAKE:{Calls.Count}";
        await next(http);
    }

    private async Task FailOnDemandAsync(HttpContext http, RequestDelegate next)
    {
        Fault? fault;
        lock (_faults)
        {
            fault = _faults.FirstOrDefault(f => f.Method == http.Request.Method && (http.Request.Path.Value ?? "").Contains(f.PathContains, StringComparison.Ordinal));
            if (fault is not null) _faults.Remove(fault);
        }
        switch (fault?.Kind)
        {
            case null:
                await next(http);
                break;
            case FaultKind.ServerError:
                await Error(HttpStatusCode.InternalServerError, "Server Error").ExecuteAsync(http);
                break;
            case FaultKind.RateLimited:
                var reset = DateTimeOffset.UtcNow.AddSeconds(fault.Seconds).ToUnixTimeSeconds();
                http.Response.Headers["X-RateLimit-Limit"] = "5000";
                http.Response.Headers["X-RateLimit-Remaining"] = "0";
                http.Response.Headers["X-RateLimit-Used"] = "5000";
                http.Response.Headers["X-RateLimit-Reset"] = reset.ToString(System.Globalization.CultureInfo.InvariantCulture);
                http.Response.Headers["X-RateLimit-Resource"] = "core";
                await Error(HttpStatusCode.Forbidden, "API rate limit exceeded for installation ID 1.",
                    "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api").ExecuteAsync(http);
                break;
            case FaultKind.TooManyRequests:
                http.Response.Headers.RetryAfter = fault.Seconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
                await Error(HttpStatusCode.TooManyRequests, "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
                    "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits").ExecuteAsync(http);
                break;
            case FaultKind.FailAfterProcessing:
                // GitHub did the work but the answer is lost on the way (a 502 from a proxy, a dropped connection).
                var original = http.Response.Body;
                http.Response.Body = Stream.Null;
                await next(http);
                http.Response.Body = original;
                http.Response.Headers.ContentLength = null;
                await Error(HttpStatusCode.BadGateway, "Server Error").ExecuteAsync(http);
                break;
            case FaultKind.SlowAfterProcessing:
                // GitHub did the work but answers only after the client has given up (a timeout, not an error).
                await next(http);
                await Task.Delay(TimeSpan.FromSeconds(fault.Seconds), http.RequestAborted).ContinueWith(_ => { });
                break;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_app is not null) await _app.DisposeAsync();
        AppKey?.Dispose();
    }
}
