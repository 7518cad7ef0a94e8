using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using PerfService.Core.Reports;
using PerfService.Dashboard;
using PerfService.Data;
using PerfService.PullRequests;
using PerfService.GitHub;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>Reports set by the test, in place of the verdict-backed ones.</summary>
public sealed class FakeReportSource
{
    private readonly ConcurrentDictionary<(long, int), PullRequestReport> _reports = new();

    public void Set(long projectId, PullRequestReport report) => _reports[(projectId, report.PullRequest)] = report;

    public PullRequestReport? Get(long projectId, int pullRequest) => _reports.TryGetValue((projectId, pullRequest), out var report) ? report : null;

    /// <summary>The service's reports, answered from the test's.</summary>
    public sealed class SetReports(FakeReportSource source, PerfDbContext db, IOptions<DashboardOptions> dashboard) : PullRequestReports(db, dashboard)
    {
        public override Task<PullRequestReport?> BuildAsync(long projectId, int pullRequest, CancellationToken ct) =>
            Task.FromResult(source.Get(projectId, pullRequest));
    }
}

/// <summary>The service on its own database, talking to a fake GitHub, with reports from the test.</summary>
public sealed class GitHubTestApp(FakeGitHub github, FakeReportSource? reports, IReadOnlyDictionary<string, string?> settings) : PerfServiceApp
{
    public const string WebhookSecret = "It's a Secret to Everybody";

    protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?>(settings)
    {
        ["GitHub:ApiBaseUrl"] = github.Url,
        ["GitHub:WebhookSecret"] = WebhookSecret,
        ["GitHub:TransientDelayMilliseconds"] = "50",
        // The request timeout stays the product's 30 s, which a loaded CI machine never trips by accident; the test of
        // a timed-out call shortens it for its own service (ShortTimeoutGitHubFixture).
    };

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        base.ConfigureWebHost(builder);
        // Null: the real, verdict-backed report source (the end-to-end test).
        if (reports is not null)
            builder.ConfigureTestServices(s =>
            {
                s.AddSingleton(reports);
                s.AddScoped<PullRequestReports, FakeReportSource.SetReports>();
            });
    }
}

/// <summary>One fake GitHub and one service per test class. Token authentication unless a subclass says otherwise.</summary>
public class GitHubFixture : IAsyncLifetime
{
    public FakeGitHub GitHub { get; } = new();
    public FakeReportSource Reports { get; } = new();
    public GitHubTestApp App { get; private set; } = null!;

    protected virtual IReadOnlyDictionary<string, string?> ServiceSettings => new Dictionary<string, string?> { ["GitHub:Token"] = FakeGitHub.PersonalToken };

    /// <summary>Reports come from the test's fake source, unless a subclass wants the real pipeline.</summary>
    protected virtual bool FakeReports => true;

    public virtual async Task InitializeAsync()
    {
        await GitHub.StartAsync();
        App = new GitHubTestApp(GitHub, FakeReports ? Reports : null, ServiceSettings);
        await App.InitializeAsync();
    }

    public async Task DisposeAsync()
    {
        await ((IAsyncLifetime)App).DisposeAsync();
        await GitHub.DisposeAsync();
    }

    /// <summary>Creates a project connected to <paramref name="repository"/> and returns its id.</summary>
    public async Task<long> CreateProjectAsync(string slug, string repository, string defaultBranch = "main")
    {
        var admin = await App.ClientWithScopesAsync(Scopes.Admin);
        var response = await admin.PostAsJsonAsync("/api/v1/projects", new { slug, name = slug, gitHubRepository = repository, defaultBranch });
        response.EnsureSuccessStatusCode();
        return await App.WithDbAsync(db => db.Projects.Where(p => p.Slug == slug).Select(p => p.Id).SingleAsync());
    }

    /// <summary>A project on the repository <c>octo/{slug}</c>.</summary>
    public async Task<(long Id, string Repo)> CreateOctoProjectAsync(string slug)
    {
        var repo = $"octo/{slug}";
        return (await CreateProjectAsync(slug, repo), repo);
    }

    /// <summary>The stored row of the one comment a project keeps on a pull request.</summary>
    public Task<Data.Entities.PullRequestComment?> CommentRowAsync(long projectId, int pullRequest) =>
        App.WithDbAsync(db => db.PullRequestComments.AsNoTracking().SingleOrDefaultAsync(c => c.ProjectId == projectId && c.PullRequest == pullRequest));

    /// <summary>Runs the publish job as Hangfire would, in a scope of its own.</summary>
    public async Task PublishAsync(long projectId, int pullRequest)
    {
        await using var scope = App.Services.CreateAsyncScope();
        await scope.ServiceProvider.GetRequiredService<PullRequestPublishJob>().RunAsync(projectId, pullRequest, CancellationToken.None);
    }

    /// <summary>Sends a delivery as GitHub does: JSON body, event and delivery headers, HMAC signature.</summary>
    public Task<HttpResponseMessage> DeliverAsync(string eventName, object payload, string? secret = GitHubTestApp.WebhookSecret,
        string? delivery = null, Func<byte[], byte[]>? tamper = null)
    {
        var body = JsonSerializer.SerializeToUtf8Bytes(payload);
        var request = new HttpRequestMessage(HttpMethod.Post, "/api/v1/github/webhook") { Content = new ByteArrayContent(tamper?.Invoke(body) ?? body) };
        request.Content.Headers.ContentType = new("application/json");
        request.Headers.Add("X-GitHub-Event", eventName);
        request.Headers.Add("X-GitHub-Delivery", delivery ?? Guid.NewGuid().ToString());
        request.Headers.Add("User-Agent", "GitHub-Hookshot/fake");
        if (secret is not null) request.Headers.Add("X-Hub-Signature-256", WebhookSignature.Sign(secret, body));
        return App.CreateClient().SendAsync(request);
    }

    public static string Sha(string seed) => Convert.ToHexStringLower(SHA1.HashData(Encoding.UTF8.GetBytes(seed)));
}

/// <summary>Authenticates as a GitHub App with a key made for the test; the fake checks the JWTs with its public half.</summary>
public class GitHubAppFixture : GitHubFixture
{
    private readonly RSA _key = RSA.Create(2048);

    protected override IReadOnlyDictionary<string, string?> ServiceSettings => new Dictionary<string, string?>
    {
        ["GitHub:AppId"] = FakeGitHub.AppId,
        // PKCS#1, as GitHub hands out App keys; with literal "\n" as an environment variable would carry it.
        ["GitHub:PrivateKeyPem"] = _key.ExportRSAPrivateKeyPem().Replace("\n", "\\n", StringComparison.Ordinal),
    };

    public override Task InitializeAsync()
    {
        GitHub.AppKey = RSA.Create();
        GitHub.AppKey.ImportRSAPublicKey(_key.ExportRSAPublicKey(), out _);
        return base.InitializeAsync();
    }
}
