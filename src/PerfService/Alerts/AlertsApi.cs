using PerfService.Auth;
using PerfService.Hosting.Http;

namespace PerfService.Alerts;

/// <summary>
/// Alerts and alert groups: read with the history (public projects anonymously), triaged with a token of scope read or
/// admin (the people who look at the dashboard are the ones who triage), whose name is recorded as the actor.
/// </summary>
public static class AlertsApi
{
    public static WebApplicationBuilder AddAlerts(this WebApplicationBuilder builder)
    {
        builder.Services.AddScoped<AlertService>();
        builder.Services.AddScoped<AlertTriage>();
        return builder;
    }

    public static RouteGroupBuilder MapAlertsApi(this IEndpointRouteBuilder app)
    {
        var api = app.MapGroup("/api/v1").RequireRateLimiting(DashboardRateLimiting.Policy);
        var alerts = api.MapGroup("/alerts").WithTags("Alerts");
        alerts.MapGet("", AlertsEndpoints.List).WithSummary("List alerts, newest first");
        alerts.MapGet("/{alertId:long}", AlertsEndpoints.Get).WithSummary("Get an alert with its history");
        alerts
            .MapPost("/{alertId:long}/state", AlertsEndpoints.SetState)
            .RequireAuthorization(Scopes.Read)
            .WithSummary("Triage an alert: acknowledge, mark invalid or fixed, or reopen");

        api.MapGet("/projects/{slug}/alert-groups", AlertGroupsEndpoints.List)
            .WithTags("Alerts")
            .WithSummary("Alert groups of a project: alerts whose commit ranges overlap, newest first");
        var groups = api.MapGroup("/alert-groups").WithTags("Alerts");
        groups
            .MapGet("/{alertGroupId:long}", AlertGroupsEndpoints.Get)
            .WithSummary("An alert group with its member alerts");
        groups
            .MapPost("/{alertGroupId:long}/state", AlertGroupsEndpoints.SetState)
            .RequireAuthorization(Scopes.Read)
            .WithSummary("Triage every member of an alert group at once");
        return api;
    }
}
