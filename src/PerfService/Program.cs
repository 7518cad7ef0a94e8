using PerfService.Access;
using PerfService.AgentJobs;
using PerfService.Alerts;
using PerfService.Analysis;
using PerfService.ApiReference;
using PerfService.Auth;
using PerfService.Background;
using PerfService.Bisection;
using PerfService.Dashboard;
using PerfService.Data;
using PerfService.GitHub;
using PerfService.Hosting;
using PerfService.Hosting.Telemetry;
using PerfService.Ingestion;
using PerfService.Profiling;
using PerfService.Projects;
using PerfService.PullRequests;
using PerfService.Runs;

var builder = WebApplication.CreateBuilder(args);

builder.AddServiceDefaults();
builder.AddTelemetry();
builder.AddPerfData();
builder.AddPerfAuth();
builder.AddIngestion();
builder.AddAgentJobs();
builder.AddAlerts();
builder.AddAnalysis();
builder.AddBisection();
builder.AddBackgroundJobs();
builder.AddGitHub();
builder.AddPullRequests();
builder.AddProfiling();
builder.AddDashboard();
builder.AddApiReference();

var app = builder.Build();
if (await app.TryRunAsync(args) || !app.SettingsAreValid()) // a wrong setting: exit 1, saying which
    return;

app.UseServiceDefaults();
app.UseServiceRoles(); // a background-only process serves health and metrics only
app.UseAuthentication();
app.UseAuthorization();
app.UseRateLimiter(); // after authentication, so the limiter can partition by token
app.UseProjectAccess();

app.MapHealthEndpoints();
app.MapMetrics();
app.MapServiceStatusApi();
app.MapProjectsApi();
app.MapIngestionApi();
app.MapAgentJobsApi();
app.MapRunsApi();
app.MapPullRequestReportApi();
app.MapProfilesApi();
app.MapGitHubWebhook();
app.MapPullRequestApprovalApi();
app.MapApiReference();
app.MapDashboard();
app.MapAlertsApi();
app.MapHangfireAdminDashboard();

app.Run();
