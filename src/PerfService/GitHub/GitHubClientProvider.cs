using Microsoft.Extensions.Options;
using Octokit;
using Octokit.Internal;

namespace PerfService.GitHub;

/// <summary>
/// Octokit clients for a repository. With a GitHub App: finds the repository's installation, then takes an
/// installation token, both cached; a token is renewed five minutes before it expires (they live an hour).
/// One HTTP client serves every connection.
/// </summary>
public sealed class GitHubClientProvider(
    IOptions<GitHubOptions> options,
    GitHubAppJwt jwt,
    TimeProvider time,
    ILogger<GitHubClientProvider> logger
)
{
    private static readonly ProductHeaderValue s_product = new("PerfService");
    private static readonly TimeSpan s_renewBefore = TimeSpan.FromMinutes(5);

    private readonly IHttpClient _http = Http(options.Value.RequestTimeoutSeconds);
    private readonly SemaphoreSlim _gate = new(1, 1);
    private readonly Dictionary<string, long> _installations = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<long, AccessToken> _tokens = [];
    private string? _identity;

    public bool IsConfigured => options.Value.CanPublish;

    public async Task<IGitHubClient> ForRepositoryAsync(string owner, string name, CancellationToken ct)
    {
        var o = options.Value;
        if (!o.UsesApp)
            return Client(new Credentials(o.Token));
        return Client(new Credentials(await InstallationTokenAsync(owner, name, ct)));
    }

    /// <summary>
    /// The login the service writes comments as: the App's bot user (<c>SLUG[bot]</c>, from GET /app) or the token's
    /// user
    /// (GET /user). A comment is the service's own only if this login wrote it.
    /// </summary>
    public async Task<string> IdentityAsync(CancellationToken ct)
    {
        if (_identity is { } known)
            return known;
        var o = options.Value;
        ct.ThrowIfCancellationRequested();
        var login = o.UsesApp
            ? (await Client(new Credentials(jwt.Create(), AuthenticationType.Bearer)).GitHubApps.GetCurrent()).Slug
                + "[bot]"
            : (await Client(new Credentials(o.Token)).User.Current()).Login;
        logger.LogInformation("PerfService writes to GitHub as {Login}", login);
        return _identity = login;
    }

    /// <summary>Drops cached credentials of a repository after GitHub refused them (the App was uninstalled, the token
    /// revoked).</summary>
    public async Task ForgetAsync(string owner, string name)
    {
        await _gate.WaitAsync();
        try
        {
            if (_installations.Remove($"{owner}/{name}", out var installation))
                _tokens.Remove(installation);
        }
        finally
        {
            _gate.Release();
        }
    }

    private async Task<string> InstallationTokenAsync(string owner, string name, CancellationToken ct)
    {
        await _gate.WaitAsync(ct);
        try
        {
            var key = $"{owner}/{name}";
            IGitHubClient? app = null;
            if (!_installations.TryGetValue(key, out var installation))
            {
                app = Client(new Credentials(jwt.Create(), AuthenticationType.Bearer));
                installation = (await app.GitHubApps.GetRepositoryInstallationForCurrent(owner, name)).Id;
                _installations[key] = installation;
            }
            if (
                _tokens.TryGetValue(installation, out var cached)
                && cached.ExpiresAt - time.GetUtcNow() > s_renewBefore
            )
                return cached.Token;

            app ??= Client(new Credentials(jwt.Create(), AuthenticationType.Bearer));
            var token = await app.GitHubApps.CreateInstallationToken(installation);
            _tokens[installation] = token;
            logger.LogInformation(
                "New installation token for {Repository} (installation {Installation}), valid until {ExpiresAt}",
                key,
                installation,
                token.ExpiresAt
            );
            return token.Token;
        }
        finally
        {
            _gate.Release();
        }
    }

    private GitHubClient Client(Credentials credentials) =>
        new(
            new Connection(
                s_product,
                options.Value.ApiBaseUri,
                new InMemoryCredentialStore(credentials),
                _http,
                new SimpleJsonSerializer()
            )
        );

    private static HttpClientAdapter Http(int timeoutSeconds)
    {
        var http = new HttpClientAdapter(HttpMessageHandlerFactory.CreateDefault);
        // A hung call would otherwise hold a worker for Octokit's 100 s; timed out, it is retried like a 5xx.
        // (The shared HttpClient takes its timeout only before its first request.)
        http.SetRequestTimeout(TimeSpan.FromSeconds(timeoutSeconds));
        return http;
    }
}
