using System.Diagnostics;

namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>
/// The built service started as a user starts it, with settings that must stop it at start. A failed start is tested
/// on the real process: WebApplicationFactory cannot show one reliably, because its deferred host reads the services
/// of a host that the failing entry point may already have disposed (an ObjectDisposedException, now and then).
/// </summary>
internal static class FailedStart
{
    /// <summary>What the service printed (standard output and error) and its exit code.</summary>
    public sealed record Exited(int ExitCode, IReadOnlyList<string> Lines)
    {
        public string Output => string.Join('\n', Lines);
    }

    /// <summary>Starts the service with <paramref name="settings"/> ("Section:Key" names) and returns once it has
    /// exited; fails the test (and kills it) if it is still running after two minutes.</summary>
    public static async Task<Exited> RunAsync(string connectionString, IReadOnlyDictionary<string, string> settings)
    {
        var dll = TestPaths.ServiceDll;
        var psi = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = Path.GetDirectoryName(dll)!,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var a in new[] { dll, "--urls", "http://127.0.0.1:0" }) psi.ArgumentList.Add(a);
        psi.Environment.Remove("ASPNETCORE_ENVIRONMENT");
        psi.Environment.Remove("DOTNET_ENVIRONMENT");
        psi.Environment["ConnectionStrings__Perf"] = connectionString;
        foreach (var (key, value) in settings) psi.Environment[key.Replace(":", "__", StringComparison.Ordinal)] = value;

        using var process = Process.Start(psi) ?? throw new InvalidOperationException("dotnet did not start");
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new Xunit.Sdk.XunitException($"the service kept running with {string.Join(", ", settings)}");
        }
        var lines = (await stdout + "\n" + await stderr).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        return new Exited(process.ExitCode, lines);
    }

    /// <summary>Asserts the start failed on the settings' validation: exit code 1 and an error line naming the section
    /// and the setting, not an unhandled exception.</summary>
    public static void AssertRefused(Exited service, string section, string name)
    {
        Assert.True(service.ExitCode == 1, $"exit code {service.ExitCode}, expected 1:\n{service.Output}");
        Assert.True(service.Lines.Any(l => l.StartsWith($"error: a setting in section '{section}' is not valid: ", StringComparison.Ordinal)
            && l.Contains(name, StringComparison.Ordinal)), $"no error line names {section}:{name}:\n{service.Output}");
        Assert.DoesNotContain(service.Lines, l => l.StartsWith("Unhandled exception", StringComparison.Ordinal));
    }
}
