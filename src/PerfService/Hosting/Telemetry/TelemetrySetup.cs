using Microsoft.Extensions.Options;
using Npgsql;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;
using PerfService.Access;

namespace PerfService.Hosting.Telemetry;

/// <summary>
/// OpenTelemetry for the service: its own meter and trace source (<see cref="PerfTelemetry"/>), ASP.NET Core,
/// HttpClient (GitHub), runtime and Npgsql instrumentation. Metrics are scraped by Prometheus at
/// <see cref="TelemetryOptions.MetricsPath"/>; everything also goes to an OTLP collector when the standard
/// <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> is set. Tracing is on only then: without a collector nobody reads the spans.
/// </summary>
public static class TelemetrySetup
{
    public const string MetricsPolicy = "metrics-scrape";

    public static WebApplicationBuilder AddTelemetry(this WebApplicationBuilder builder)
    {
        builder
            .Services.AddOptions<TelemetryOptions>()
            .BindConfiguration(TelemetryOptions.Section)
            .ValidateDataAnnotations()
            .ValidateOnStart();
        builder.Services.AddSingleton<ServiceSnapshot>();
        builder.Services.AddSingleton<ServiceGauges>();
        builder.Services.AddHostedService<GaugeStarter>();
        builder
            .Services.AddAuthorizationBuilder()
            .AddPolicy(
                MetricsPolicy,
                p =>
                    p.RequireAssertion(c =>
                        c.User.IsServiceAdmin() || (c.Resource is HttpContext http && FromAllowedNetwork(http))
                    )
            );
        HangfireTracing.RegisterOnce();

        var otlp = !string.IsNullOrWhiteSpace(builder.Configuration["OTEL_EXPORTER_OTLP_ENDPOINT"]);
        var otel = builder
            .Services.AddOpenTelemetry()
            .ConfigureResource(r =>
                r.AddService(
                    PerfTelemetry.Name,
                    serviceVersion: typeof(TelemetrySetup).Assembly.GetName().Version?.ToString()
                )
            )
            .WithMetrics(m =>
                m.AddMeter(PerfTelemetry.Name, "Npgsql")
                    .AddAspNetCoreInstrumentation()
                    .AddHttpClientInstrumentation()
                    .AddRuntimeInstrumentation()
                    .AddPrometheusExporter()
            );
        if (otlp)
        {
            otel.WithTracing(t =>
                t.AddSource(PerfTelemetry.Name)
                    .AddAspNetCoreInstrumentation(o => o.Filter = http => !IsScrape(http))
                    .AddHttpClientInstrumentation()
                    .AddNpgsql()
            );
            otel.UseOtlpExporter();
        }
        return builder;
    }

    /// <summary>The scrape endpoint, behind <see cref="MetricsPolicy"/>: a service-admin token or an allowed
    /// network.</summary>
    public static WebApplication MapMetrics(this WebApplication app)
    {
        var path = app.Services.GetRequiredService<IOptions<TelemetryOptions>>().Value.MetricsPath;
        if (path.Length > 0)
            app.MapPrometheusScrapingEndpoint(path).RequireAuthorization(MetricsPolicy);
        return app;
    }

    private static bool FromAllowedNetwork(HttpContext http)
    {
        var remote = http.Connection.RemoteIpAddress;
        if (remote is null)
            return false;
        if (remote.IsIPv4MappedToIPv6)
            remote = remote.MapToIPv4();
        var networks = http.RequestServices.GetRequiredService<IOptions<TelemetryOptions>>().Value.AllowedNetworks();
        return networks.Any(n => n.Contains(remote));
    }

    private static bool IsScrape(HttpContext http) =>
        http.Request.Path.Equals(
            http.RequestServices.GetRequiredService<IOptions<TelemetryOptions>>().Value.MetricsPath,
            StringComparison.Ordinal
        );

    /// <summary>Creates the gauges with the host, so the first scrape already has them.</summary>
    private sealed class GaugeStarter(ServiceGauges gauges) : IHostedService
    {
        public Task StartAsync(CancellationToken cancellationToken)
        {
            GC.KeepAlive(gauges);
            return Task.CompletedTask;
        }

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }
}
