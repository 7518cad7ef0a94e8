using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using PerfService.IntegrationTests.Infrastructure;

namespace Dashboard.BrowserTests;

/// <summary>The service on a real Kestrel loopback port with seeded history, and one browser, shared by the page tests.</summary>
public sealed class DashboardSite : PerfServiceApp
{
    public Uri BaseAddress { get; private set; } = null!;
    public Browser Browser { get; private set; } = null!;
    public SeedData Data { get; private set; } = null!;

    public override async Task InitializeAsync()
    {
        await base.InitializeAsync();
        // Before seeding: without a browser there is no point, and the message says what to install.
        Browser = Browser.Start();
        UseKestrel(k => k.Listen(System.Net.IPAddress.Loopback, 0));
        StartServer();
        var address = Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        BaseAddress = new Uri(address);
        Data = await BrowserSeed.SeedAsync(this);
    }

    public Uri Url(string pathAndQuery) => new(BaseAddress, pathAndQuery);

    public HttpClient Http() => new() { BaseAddress = BaseAddress };

    // PerfServiceApp disposes through base.DisposeAsync(), which reaches here through the virtual Dispose(bool), not DisposeAsync.
    protected override void Dispose(bool disposing)
    {
        if (disposing) Browser?.Dispose();
        base.Dispose(disposing);
    }
}

[CollectionDefinition(Name)]
public sealed class SiteCollection : ICollectionFixture<DashboardSite>
{
    public const string Name = "dashboard site";
}
