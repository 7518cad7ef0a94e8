namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>
/// A test class whose every test gets a service of its own on a fresh database (xUnit makes one instance per test),
/// for tests that read whole tables or depend on background jobs finding nothing else.
/// </summary>
public abstract class OwnServiceTests<TApp> : IAsyncLifetime where TApp : PerfServiceApp, new()
{
    protected readonly TApp app = new();

    public Task InitializeAsync() => app.InitializeAsync();

    public Task DisposeAsync() => ((IAsyncLifetime)app).DisposeAsync();
}

/// <inheritdoc />
public abstract class OwnServiceTests : OwnServiceTests<PerfServiceApp>;
