using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Testing;

namespace PerfService.IntegrationTests.Foundation;

public class HealthTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    [Fact]
    public async Task Liveness_and_readiness_answer_200_with_a_reachable_database()
    {
        var client = app.CreateClient();
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/healthz")).StatusCode);
        // Readiness allows the database 2 s per probe; a first connection while other test classes create and migrate
        // their databases can take longer, and a load balancer would simply probe again.
        var ready = await Eventually.WaitAsync(async () => (await client.GetAsync("/readyz")).StatusCode,
            s => s == HttpStatusCode.OK, TimeSpan.FromSeconds(30));
        Assert.Equal(HttpStatusCode.OK, ready);
    }

    [Fact]
    public async Task Readiness_is_503_when_the_database_is_unreachable_while_liveness_stays_200()
    {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        // The Testing environment as every other host of the suite: outside it Hangfire's process-wide log provider
        // would be bound to this short-lived host and fail the other hosts' enqueues once it is disposed.
        await using var broken = new WebApplicationFactory<Program>().WithWebHostBuilder(b => b.UseTestHost()
            .UseSetting("ConnectionStrings:Perf", "Host=127.0.0.1;Port=1;Username=postgres;Database=none;Timeout=2"));
        var client = broken.CreateClient();
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/healthz")).StatusCode);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, (await client.GetAsync("/readyz")).StatusCode);
    }

    [Fact]
    public async Task Unknown_routes_answer_with_problem_details()
    {
        var response = await app.CreateClient().GetAsync("/api/v1/no-such-thing");
        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        var problem = await response.Content.ReadFromJsonAsync<ProblemDetails>();
        Assert.Equal(404, problem?.Status);
    }
}
