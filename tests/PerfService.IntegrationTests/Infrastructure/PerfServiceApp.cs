using System.Net.Http.Headers;
using System.Text.Json;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;
using PerfService.Agents.Client;
using PerfService.Core.Parsing;
using PerfService.Data;

namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>The service in-process on its own migrated database, with domain helpers. Use as an xunit class fixture.</summary>
public class PerfServiceApp : WebApplicationFactory<Program>, IAsyncLifetime
{
    public TestDatabase Database { get; private set; } = null!;

    /// <summary>Extra configuration for a test class (e.g. small limits).</summary>
    protected virtual IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?>();

    /// <summary>True for a test class that moves the service's clock itself (<see cref="Clock"/>) instead of sleeping.</summary>
    protected virtual bool FakeClock => false;

    /// <summary>The service's clock when <see cref="FakeClock"/> is set: starts at the real time, moves only by Advance.</summary>
    public FakeTimeProvider Clock { get; } = new(DateTimeOffset.UtcNow);

    public virtual async Task InitializeAsync() => Database = await TestDatabase.CreateAsync();

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseTestHost();
        builder.UseSetting("ConnectionStrings:Perf", Database.ConnectionString);
        foreach (var (key, value) in Settings) builder.UseSetting(key, value);
        if (FakeClock) builder.ConfigureTestServices(services => services.AddSingleton<TimeProvider>(Clock));
    }

    public async Task<string> CreateTokenAsync(params string[] scopes)
    {
        await using var scope = Services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<PerfDbContext>();
        return await TokenCommands.CreateAsync(db, "test-" + string.Join("-", scopes), scopes);
    }

    public async Task<HttpClient> ClientWithScopesAsync(params string[] scopes)
    {
        var client = CreateClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", await CreateTokenAsync(scopes));
        return client;
    }

    public async Task CreateProjectAsync(string slug, bool isPublic = true, string? repositoryUrl = null)
    {
        var admin = await ClientWithScopesAsync(Scopes.Admin);
        var response = await admin.PostAsJsonAsync("/api/v1/projects", new { slug, name = slug, isPublic, repositoryUrl });
        response.EnsureSuccessStatusCode();
    }

    public async Task<T> WithDbAsync<T>(Func<PerfDbContext, Task<T>> action)
    {
        await using var scope = Services.CreateAsyncScope();
        return await action(scope.ServiceProvider.GetRequiredService<PerfDbContext>());
    }

    /// <summary>The body of POST /api/v1/runs, written by the agent's own writer: tests post what agents post.</summary>
    public static MultipartFormDataContent Upload(RunMetadata metadata, params (string Path, byte[] Content)[] files) =>
        RunMultipart.Create(metadata, [.. files.Select(f => new Artifact(f.Path, f.Content))]);

    async Task IAsyncLifetime.DisposeAsync()
    {
        await base.DisposeAsync();
        await Database.DisposeAsync();
    }
}
