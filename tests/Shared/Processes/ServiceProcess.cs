using System.Net;
using System.Net.Http.Headers;

namespace PerfService.TestSupport;

/// <summary>
/// The real service (the built PerfService.dll) as a child process on a loopback port that stays the same across
/// restarts, so clients and agents find it again. Its log goes to {logDir}/service-N.log.
/// </summary>
public sealed class ServiceProcess : IAsyncDisposable
{
    private readonly string _connectionString;
    private readonly IReadOnlyDictionary<string, string?> _settings;
    private readonly string _logDir;
    private ChildProcess? _process;
    private int _starts;

    public ServiceProcess(string connectionString, string logDir, IReadOnlyDictionary<string, string?>? settings = null)
    {
        _connectionString = connectionString;
        _logDir = logDir;
        _settings = settings ?? new Dictionary<string, string?>();
        Port = Ports.Free();
    }

    public int Port { get; }
    public Uri BaseAddress => new($"http://127.0.0.1:{Port}/");
    public ChildProcess Process => _process ?? throw new InvalidOperationException("the service is not started");
    public bool Running => _process is { HasExited: false };

    private readonly List<string> _earlierLines = [];
    private int _readyAtLine;

    /// <summary>Every log line of every start so far.</summary>
    public IEnumerable<string> LogLines => _earlierLines.Concat(_process?.Lines ?? []);

    public async Task StartAsync(bool waitReady = true)
    {
        if (Running) throw new InvalidOperationException("already running");
        _starts++;
        _readyAtLine = 0;
        var env = new Dictionary<string, string?>
        {
            ["ConnectionStrings__Perf"] = _connectionString,
            ["ASPNETCORE_ENVIRONMENT"] = null,
            ["DOTNET_ENVIRONMENT"] = null,
            // Quieter logs: every SQL command at Information would make the log the bottleneck.
            ["Logging__LogLevel__Microsoft.EntityFrameworkCore"] = "Warning",
            // No recurring schedule (lease sweep, retention, baselines) racing what a test does; settings may turn it on.
            ["Schedule__Recurring"] = "false",
        };
        foreach (var (k, v) in _settings) env[k] = v;
        var dll = TestPaths.ServiceDll;
        _process = ChildProcess.Start("dotnet", [dll, "--urls", $"http://127.0.0.1:{Port}"], Path.GetDirectoryName(dll)!, env,
            Path.Combine(_logDir, $"service-{_starts}.log"));
        using var http = Anonymous();
        // A cold start on a loaded 2-core machine (JIT, migrations check, Hangfire) has been seen past 40 s; a poll every
        // 250 ms stays well inside /readyz's rate limit however long it takes.
        var ok = await Eventually.WaitAsync(async () => await StatusAsync(http, waitReady ? "readyz" : "healthz"),
            s => s == HttpStatusCode.OK || !Running, TimeSpan.FromSeconds(120), 250);
        if (ok != HttpStatusCode.OK)
            throw new InvalidOperationException($"the service did not become {(waitReady ? "ready" : "alive")} (exited: {!Running}):\n{Tail()}");
        _readyAtLine = _process.Lines.Count;
    }

    /// <summary>SIGKILL, and the process is forgotten (its log lines are kept); <see cref="StartAsync"/> starts a new one.</summary>
    public async Task KillHardAsync()
    {
        if (_process is null) return;
        _process.KillHard();
        await _process.DisposeAsync();
        _earlierLines.AddRange(_process.Lines);
        _process = null;
    }

    public async Task RestartAsync()
    {
        await KillHardAsync();
        await StartAsync();
    }

    public HttpClient Anonymous(TimeSpan? timeout = null) =>
        new(new SocketsHttpHandler { PooledConnectionLifetime = TimeSpan.FromSeconds(30) })
        {
            BaseAddress = BaseAddress,
            Timeout = timeout ?? TimeSpan.FromSeconds(60),
        };

    public HttpClient Client(string token, TimeSpan? timeout = null)
    {
        var http = Anonymous(timeout);
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return http;
    }

    public static async Task<HttpStatusCode?> StatusAsync(HttpClient http, string path)
    {
        try
        {
            using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            using var response = await http.GetAsync(path, cts.Token);
            return response.StatusCode;
        }
        catch (Exception e) when (e is HttpRequestException or OperationCanceledException)
        {
            return null;
        }
    }

    public string Tail(int lines = 40) => _process is null ? "" : string.Join('\n', _process.Lines.TakeLast(lines));

    /// <summary>Log entries at Error or Critical level (the service logs one JSON object per line), except a readiness
    /// probe that failed while the service was still starting: saying "not ready yet" is what the probe is for (a cold
    /// first connection on a loaded machine can take longer than the check's 2 s).</summary>
    public IReadOnlyList<string> ErrorLogLines() =>
        _earlierLines.Where(IsError).Concat(_process?.Lines.Where((l, i) => IsError(l) && !(i < _readyAtLine && IsHealthCheck(l))) ?? [])
            .ToList();

    private static bool IsError(string line) =>
        line.Contains("\"LogLevel\":\"Error\"", StringComparison.Ordinal) || line.Contains("\"LogLevel\":\"Critical\"", StringComparison.Ordinal);

    private static bool IsHealthCheck(string line) =>
        line.Contains("\"Category\":\"Microsoft.Extensions.Diagnostics.HealthChecks.DefaultHealthCheckService\"", StringComparison.Ordinal);

    public async ValueTask DisposeAsync()
    {
        if (_process is not null) await _process.DisposeAsync();
        _process = null;
    }
}
