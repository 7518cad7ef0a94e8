using System.Diagnostics;

namespace PerfService.IntegrationTests.ApiReference;

/// <summary>
/// An OpenAPI validator that shares nothing with ASP.NET Core: @seriousme/openapi-schema-validator (the official JSON
/// schemas of OpenAPI 3.0/3.1/3.2, ajv) from npm, in tests/tools/openapi, run with Debian's node like any other tool.
/// ./perf test installs it (npm ci) when it is missing; without it the test fails with the command to run.
/// </summary>
public static class OpenApiValidator
{
    private static string ToolDir => Path.GetFullPath(Path.Combine(Fixtures.Root, "..", "tools", "openapi"));

    public static async Task<(bool Valid, string Output)> ValidateAsync(string documentJson)
    {
        if (!Directory.Exists(Path.Combine(ToolDir, "node_modules", "@seriousme", "openapi-schema-validator")))
            throw new InvalidOperationException($"the OpenAPI validator is not installed: run 'npm ci --prefix {ToolDir}' (needs node and npm: apt-get install nodejs npm)");
        var file = Path.Combine(Path.GetTempPath(), $"openapi-{Guid.NewGuid():N}.json");
        await File.WriteAllTextAsync(file, documentJson);
        try
        {
            var start = new ProcessStartInfo("node", [Path.Combine(ToolDir, "validate.mjs"), file])
            {
                RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = ToolDir,
            };
            using var process = Process.Start(start) ?? throw new InvalidOperationException("node did not start");
            var stdout = process.StandardOutput.ReadToEndAsync();
            var stderr = process.StandardError.ReadToEndAsync();
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
            await process.WaitForExitAsync(timeout.Token);
            return (process.ExitCode == 0, (await stdout + await stderr).Trim());
        }
        finally
        {
            File.Delete(file);
        }
    }
}
