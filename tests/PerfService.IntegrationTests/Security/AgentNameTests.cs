using System.Net.Http.Headers;
using System.Text.Json;
using Microsoft.AspNetCore.Mvc;
using PerfService.AgentJobs;

namespace PerfService.IntegrationTests.Security;

/// <summary>
/// Agent names and machines: a bound admin token cannot take over the fleet's or another project's agents, anonymous
/// callers see no machine descriptions, and a refused name says nothing about agents the caller cannot see.
/// </summary>
public class AgentNameTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private async Task<HttpClient> BoundClientAsync(string scope, string slug)
    {
        var project = await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == slug).Select(p => p.Id).SingleAsync());
        var token = await app.WithDbAsync(db => TokenCommands.CreateAsync(db, $"bound-{scope}-{slug}-{Guid.NewGuid():N}", [scope], project));
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return client;
    }

    private static Task<HttpResponseMessage> Register(HttpClient client, string name) => client.PostAsJsonAsync("/api/v1/agents/register",
        new RegisterAgentRequest(name, "m1-pro", new MachineInfo("Secret CPU 9000", 2, 2, 1L << 30, "Linux", "6.1-secret", new Dictionary<string, string>())));

    private Task<long?> HolderAsync(string name) =>
        app.WithDbAsync(db => db.Agents.Where(a => a.Name == name).Select(a => a.TokenId).SingleAsync());

    [Fact]
    public async Task A_bound_admin_cannot_take_over_a_fleet_agent_or_another_projects_private_agent_but_an_unbound_admin_can()
    {
        await app.CreateProjectAsync("takeover-c", isPublic: false);
        await app.CreateProjectAsync("takeover-b", isPublic: false);
        var fleetOwner = await app.ClientWithScopesAsync(Scopes.Agent);
        var fleet = await AgentClient.RegisterAsync(app, "takeover-fleet", "m1-pro", fleetOwner);
        var privateOwner = await BoundClientAsync(Scopes.Agent, "takeover-b");
        var privateAgent = await AgentClient.RegisterAsync(app, "takeover-b-private", "m1-pro", privateOwner);
        var (fleetHolder, privateHolder) = (await HolderAsync("takeover-fleet"), await HolderAsync("takeover-b-private"));

        var adminOfC = await BoundClientAsync(Scopes.Admin, "takeover-c");
        foreach (var name in new[] { "takeover-fleet", "takeover-b-private" })
            Assert.Equal(HttpStatusCode.Conflict, (await Register(adminOfC, name)).StatusCode);
        Assert.Equal((fleetHolder, privateHolder), (await HolderAsync("takeover-fleet"), await HolderAsync("takeover-b-private")));
        // The owners still claim, and C's admin still does not see B's private agent.
        Assert.Null(await fleet.ClaimAsync());
        Assert.Null(await privateAgent.ClaimAsync());
        Assert.DoesNotContain((await adminOfC.GetFromJsonAsync<List<AgentDto>>("/api/v1/agents"))!, a => a.Name == "takeover-b-private");

        // Its own new agent, C's admin registers; an admin bound to no project may take any name over.
        Assert.Equal(HttpStatusCode.OK, (await Register(adminOfC, "takeover-c-own")).StatusCode);
        var serviceAdmin = await app.ClientWithScopesAsync(Scopes.Admin);
        Assert.Equal(HttpStatusCode.OK, (await Register(serviceAdmin, "takeover-fleet")).StatusCode);
        Assert.NotEqual(fleetHolder, await HolderAsync("takeover-fleet"));
    }

    [Fact]
    public async Task Anonymous_callers_see_no_machine_and_a_conflict_does_not_confirm_a_hidden_agent()
    {
        await app.CreateProjectAsync("machines-hidden", isPublic: false);
        await AgentClient.RegisterAsync(app, "machines-shared", "m1-pro");
        await AgentClient.RegisterAsync(app, "machines-hidden-agent", "m1-pro", await BoundClientAsync(Scopes.Agent, "machines-hidden"));

        var anonymous = await app.CreateClient().GetStringAsync("/api/v1/agents");
        Assert.Contains("machines-shared", anonymous);
        Assert.DoesNotContain("Test CPU", anonymous);
        Assert.All(JsonSerializer.Deserialize<List<AgentDto>>(anonymous, JsonSerializerOptions.Web)!, a => Assert.Null(a.Machine));
        // A token holder still reads the machines (the operator's view).
        var reader = await app.ClientWithScopesAsync(Scopes.Read);
        Assert.Contains("Test CPU", await reader.GetStringAsync("/api/v1/agents"));

        // Another agent token meets both names taken; only the visible one is said to be another token's agent.
        var stranger = await app.ClientWithScopesAsync(Scopes.Agent);
        var shared = await Register(stranger, "machines-shared");
        Assert.Equal(HttpStatusCode.Conflict, shared.StatusCode);
        Assert.Contains("registered by another token", (await shared.Content.ReadFromJsonAsync<ProblemDetails>())!.Detail);
        var hidden = await Register(stranger, "machines-hidden-agent");
        Assert.Equal(HttpStatusCode.Conflict, hidden.StatusCode);
        var detail = (await hidden.Content.ReadFromJsonAsync<ProblemDetails>())!.Detail!;
        Assert.DoesNotContain("registered", detail);
        Assert.DoesNotContain("machines-hidden\u0027", detail);
        Assert.Contains("not available", detail);
    }
}
