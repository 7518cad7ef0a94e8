using PerfService.Access;
using PerfService.AgentJobs;
using PerfService.Auth;
using PerfService.Background;
using PerfService.Bisection;
using PerfService.Comparison;
using PerfService.Dashboard;
using PerfService.Data;
using PerfService.Hosting;
using PerfService.Hosting.Telemetry;
using PerfService.Ingestion;
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
builder.AddComparison();
builder.AddBisection();
builder.AddBackgroundJobs();
builder.AddGitHub();
builder.AddDashboard();

var app = builder.Build();
if (await app.TryRunAsync(args)) return;

app.UseServiceDefaults();
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
app.MapGitHubWebhook();
app.MapPullRequestApprovalApi();
app.MapDashboard();
app.MapHangfireAdminDashboard();

app.Run();
