namespace PerfService.Hosting;

public static class ServiceDefaults
{
    public static WebApplicationBuilder AddServiceDefaults(this WebApplicationBuilder builder)
    {
        // Structured logs: one JSON object per line, with scopes, so they can be shipped as they are.
        builder.Logging.ClearProviders();
        builder.Logging.AddJsonConsole(o =>
        {
            o.IncludeScopes = true;
            o.TimestampFormat = "yyyy-MM-ddTHH:mm:ss.fffZ ";
            o.UseUtcTimestamp = true;
        });

        // Enums travel as their names ("Regression", not 0): readable, and stable when members are added.
        builder.Services.ConfigureHttpJsonOptions(o =>
            o.SerializerOptions.Converters.Add(new System.Text.Json.Serialization.JsonStringEnumConverter())
        );
        builder.Services.AddProblemDetails(o =>
            o.CustomizeProblemDetails = ctx =>
                ctx.ProblemDetails.Extensions.TryAdd("traceId", ctx.HttpContext.TraceIdentifier)
        );
        builder.Services.AddExceptionHandler<ProblemExceptionHandler>();
        // A body that does not bind (wrong JSON types, too deep) throws, so the handler can say what and where.
        builder.Services.Configure<Microsoft.AspNetCore.Routing.RouteHandlerOptions>(o => o.ThrowOnBadRequest = true);
        // The one clock of the service: whatever decides by time (leases, agents online, expiry, retention) asks it, so
        // tests move time on with a FakeTimeProvider instead of sleeping.
        builder.Services.AddSingleton(TimeProvider.System);
        builder.Services.AddHealthChecks().AddCheck<DatabaseHealthCheck>("database", tags: ["ready"]);
        return builder;
    }

    public static WebApplication UseServiceDefaults(this WebApplication app)
    {
        app.UseExceptionHandler();
        // Every error status without a body (404 of an unknown route, 405, ...) still answers with ProblemDetails.
        app.UseStatusCodePages();
        app.UseNulRefusal();
        return app;
    }
}
