using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;

namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>What every in-process service of the test suite needs that production must not know about.</summary>
public static class TestHost
{
    public static IWebHostBuilder UseTestHost(this IWebHostBuilder builder) => builder
        .UseEnvironment("Testing")
        // No recurring schedule: a test runs the job it is about itself, and the service's own run of the same job (the
        // daily retention at 04:00, the minutely lease sweep) must not race it. A class about the schedule turns it on.
        .UseSetting("Schedule:Recurring", "false")
        // Hangfire's log provider is process-wide, and here many hosts come and go in one process: a provider bound to a
        // disposed host's logger factory would fail the next enqueue, so Hangfire logs nowhere.
        .ConfigureTestServices(services => services.AddSingleton<Hangfire.Logging.ILogProvider>(new SilentHangfireLog()));

    private sealed class SilentHangfireLog : Hangfire.Logging.ILogProvider, Hangfire.Logging.ILog
    {
        public Hangfire.Logging.ILog GetLogger(string name) => this;

        public bool Log(Hangfire.Logging.LogLevel logLevel, Func<string>? messageFunc, Exception? exception = null) => false;
    }
}
