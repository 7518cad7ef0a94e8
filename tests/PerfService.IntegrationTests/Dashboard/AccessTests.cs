using System.Net.Http.Headers;
using PerfService.Alerts;
using PerfService.Dashboard;
using PerfService.Data.Entities;
using PerfService.Hosting.Http;

namespace PerfService.IntegrationTests.Dashboard;

/// <summary>A private project with history next to a public one.</summary>
public class PrivateHistoryApp : PerfServiceApp
{
    public long SecretRun { get; private set; }
    public long SecretBenchmark { get; private set; }
    public long SecretAlert { get; private set; }
    public long OpenProjectId { get; private set; }

    public override async Task InitializeAsync()
    {
        await base.InitializeAsync();
        await CreateProjectAsync("secret", isPublic: false);
        await CreateProjectAsync("open");
        var ingest = await ClientWithScopesAsync(Scopes.Ingest);
        SecretRun = await HistorySeed.UploadGoAsync(ingest, "secret", 1);
        await HistorySeed.UploadGoAsync(ingest, "open", 1);
        (SecretBenchmark, SecretAlert, OpenProjectId) = await WithDbAsync(async db =>
        {
            var project = db.Projects.Single(p => p.Slug == "secret");
            var alert = new Alert { ProjectId = project.Id, Kind = AlertKind.Regression, GroupKey = "g", Summary = "secret regression", CreatedAt = DateTimeOffset.UtcNow, UpdatedAt = DateTimeOffset.UtcNow };
            db.Alerts.Add(alert);
            await db.SaveChangesAsync();
            return (db.Benchmarks.First(b => db.Suites.Any(s => s.Id == b.SuiteId && s.ProjectId == project.Id)).Id, alert.Id, db.Projects.Single(p => p.Slug == "open").Id);
        });
    }
}

public class AccessTests(PrivateHistoryApp app) : IClassFixture<PrivateHistoryApp>
{
    private string[] SecretUrls =>
    [
        "/api/v1/projects/secret/overview",
        "/api/v1/projects/secret/benchmarks",
        $"/api/v1/projects/secret/series?benchmark={app.SecretBenchmark}",
        "/api/v1/projects/secret/runs",
        $"/api/v1/projects/secret/compare?base=run:{app.SecretRun}&head=run:{app.SecretRun}",
        $"/api/v1/runs/{app.SecretRun}/verdicts",
        $"/api/v1/runs/{app.SecretRun}/targets",
        $"/api/v1/alerts/{app.SecretAlert}",
    ];

    [Fact]
    public async Task A_private_project_is_not_found_without_a_read_token()
    {
        foreach (var client in new[] { app.CreateClient(), await app.ClientWithScopesAsync(Scopes.Ingest), await app.ClientWithScopesAsync(Scopes.Agent) })
            foreach (var url in SecretUrls)
            {
                var response = await client.GetAsync(url);
                Assert.True(response.StatusCode == HttpStatusCode.NotFound, $"{url}: {response.StatusCode}");
                Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
            }
        var alerts = (await app.CreateClient().GetFromJsonAsync<Page<AlertDto>>("/api/v1/alerts?state="))!;
        Assert.DoesNotContain(alerts.Items, a => a.Project == "secret");
    }

    [Fact]
    public async Task A_read_or_admin_token_sees_it()
    {
        foreach (var client in new[] { await app.ClientWithScopesAsync(Scopes.Read), await app.ClientWithScopesAsync(Scopes.Admin) })
            foreach (var url in SecretUrls)
            {
                var response = await client.GetAsync(url);
                Assert.True(response.StatusCode == HttpStatusCode.OK, $"{url}: {response.StatusCode} {await response.Content.ReadAsStringAsync()}");
            }
        var alerts = (await (await app.ClientWithScopesAsync(Scopes.Read)).GetFromJsonAsync<Page<AlertDto>>("/api/v1/alerts?project=secret"))!;
        Assert.Equal(app.SecretAlert, Assert.Single(alerts.Items).Id);
    }

    [Fact]
    public async Task A_token_bound_to_another_project_does_not_see_it()
    {
        var secret = await app.WithDbAsync(db => TokenCommands.CreateAsync(db, "bound", [Scopes.Read], app.OpenProjectId));
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", secret);
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/api/v1/projects/secret/overview")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/api/v1/projects/open/overview")).StatusCode);
    }
}
