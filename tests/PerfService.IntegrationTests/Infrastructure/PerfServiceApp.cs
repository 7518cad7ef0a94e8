using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;

namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>The service in-process on its own migrated database. Use as an xunit class fixture.</summary>
public class PerfServiceApp : WebApplicationFactory<Program>, IAsyncLifetime
{
    public TestDatabase Database { get; private set; } = null!;

    public virtual async Task InitializeAsync() => Database = await TestDatabase.CreateAsync();

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseEnvironment("Testing");
        builder.UseSetting("ConnectionStrings:Perf", Database.ConnectionString);
    }

    async Task IAsyncLifetime.DisposeAsync()
    {
        await base.DisposeAsync();
        await Database.DisposeAsync();
    }
}
