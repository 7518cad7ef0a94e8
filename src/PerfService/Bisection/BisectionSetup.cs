namespace PerfService.Bisection;

public static class BisectionSetup
{
    public static WebApplicationBuilder AddBisection(this WebApplicationBuilder builder)
    {
        builder.Services.AddScoped<Bisector>();
        builder.Services.AddScoped<DefaultBranchCommits>();
        return builder;
    }
}
