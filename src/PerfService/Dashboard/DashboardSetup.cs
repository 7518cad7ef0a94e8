using PerfService.Hosting.Http;

namespace PerfService.Dashboard;

/// <summary>Wires the read API, rate limiting and the static dashboard into the service.</summary>
public static class DashboardSetup
{
    public static WebApplicationBuilder AddDashboard(this WebApplicationBuilder builder)
    {
        // Run from a build (./perf serve, the demo) rather than a publish, the pages stay in the project's wwwroot and
        // the build's static-web-assets manifest says where; ASP.NET Core reads it by itself only in Development.
        if (!Directory.Exists(Path.Combine(builder.Environment.ContentRootPath, "wwwroot")))
            builder.WebHost.UseStaticWebAssets();
        builder
            .Services.AddOptions<DashboardOptions>()
            .BindConfiguration(DashboardOptions.Section)
            .ValidateDataAnnotations()
            .ValidateOnStart();
        builder
            .Services.AddOptions<RateLimitOptions>()
            .BindConfiguration(RateLimitOptions.Section)
            .ValidateDataAnnotations()
            .ValidateOnStart();
        builder.Services.AddDashboardRateLimiting();
        builder.Services.AddSingleton<RunShaCache>();
        builder.Services.AddScoped<SeriesQuery>();
        builder.Services.AddScoped<CompareQuery>();
        return builder;
    }

    public static WebApplication MapDashboard(this WebApplication app)
    {
        var files = new StaticFileOptions
        {
            OnPrepareResponse = ctx =>
            {
                SecurityHeaders.Apply(ctx.Context.Response);
                // Modules are not fingerprinted: revalidate (cheap, ETag) so a deploy is picked up at once.
                ctx.Context.Response.Headers.CacheControl = "no-cache";
            },
        };
        app.UseDefaultFiles();
        app.UseStaticFiles(files);

        app.MapDashboardApi();
        app.MapDashboardPages();
        return app;
    }
}
