using PerfService.Data;
using PerfService.Hosting;

var builder = WebApplication.CreateBuilder(args);

builder.AddServiceDefaults();
builder.AddPerfData();

var app = builder.Build();

app.UseServiceDefaults();
app.MapHealthEndpoints();

app.Run();
