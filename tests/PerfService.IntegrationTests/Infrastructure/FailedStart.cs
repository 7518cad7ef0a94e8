namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>
/// The built service started as a user starts it, with settings that must stop it at start. A failed start is tested
/// on the real process: WebApplicationFactory cannot show one reliably, because its deferred host reads the services
/// of a host that the failing entry point may already have disposed (an ObjectDisposedException, now and then).
/// </summary>
internal static class FailedStart
{
    /// <summary>Starts the service with <paramref name="settings"/> ("Section:Key" names) and returns it once it has
    /// exited; fails the test if it is still running after two minutes.</summary>
    public static async Task<ChildProcess> RunAsync(string connectionString, IReadOnlyDictionary<string, string> settings)
    {
        var env = new Dictionary<string, string?>
        {
            ["ConnectionStrings__Perf"] = connectionString,
            ["ASPNETCORE_ENVIRONMENT"] = null,
            ["DOTNET_ENVIRONMENT"] = null,
        };
        foreach (var (key, value) in settings) env[key.Replace(":", "__", StringComparison.Ordinal)] = value;
        var dll = TestPaths.ServiceDll;
        var service = ChildProcess.Start("dotnet", [dll, "--urls", "http://127.0.0.1:0"], Path.GetDirectoryName(dll)!, env);
        if (!await service.WaitForExitAsync(TimeSpan.FromMinutes(2)))
        {
            await service.DisposeAsync();
            throw new Xunit.Sdk.XunitException($"the service kept running with {string.Join(", ", settings)}");
        }
        return service;
    }

    /// <summary>Asserts the start failed on the settings' validation: exit code 1 and an error line naming the section
    /// and the setting, not an unhandled exception.</summary>
    public static void AssertRefused(ChildProcess service, string section, string name)
    {
        Assert.True(service.ExitCode == 1, $"exit code {service.ExitCode}, expected 1:\n{service.Output}");
        Assert.True(service.Lines.Any(l => l.StartsWith($"error: a setting in section '{section}' is not valid: ", StringComparison.Ordinal)
            && l.Contains(name, StringComparison.Ordinal)), $"no error line names {section}:{name}:\n{service.Output}");
        Assert.DoesNotContain(service.Lines, l => l.StartsWith("Unhandled exception", StringComparison.Ordinal));
    }
}
