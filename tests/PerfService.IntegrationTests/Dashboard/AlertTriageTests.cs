using System.Collections.Concurrent;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using PerfService.Alerts;
using PerfService.Dashboard;
using PerfService.Data.Entities;
using PerfService.Hosting.Http;

namespace PerfService.IntegrationTests.Dashboard;

/// <summary>The service with two triage follow-ups: one that records, one that always fails.</summary>
public class TriageApp : PerfServiceApp
{
    public ConcurrentQueue<long> Notified { get; } = new();

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        base.ConfigureWebHost(builder);
        builder.ConfigureServices(s =>
        {
            s.AddSingleton<ITriageFollowUp>(new FailingListener());
            s.AddSingleton<ITriageFollowUp>(new RecordingListener(Notified));
        });
    }

    public async Task<long> AddAlertAsync(string project)
    {
        await CreateProjectAsync(project);
        return await WithDbAsync(async db =>
        {
            var alert = new Alert
            {
                ProjectId = db.Projects.Single(p => p.Slug == project).Id,
                Kind = AlertKind.Regression,
                State = AlertState.Active,
                GroupKey = "run-1",
                ToCommit = "abcd",
                Summary = "time +12%",
                CreatedAt = DateTimeOffset.UtcNow.AddHours(-1),
                UpdatedAt = DateTimeOffset.UtcNow.AddHours(-1),
            };
            db.Alerts.Add(alert);
            await db.SaveChangesAsync();
            return alert.Id;
        });
    }

    private sealed class RecordingListener(ConcurrentQueue<long> seen) : ITriageFollowUp
    {
        public Task AfterTriageAsync(IReadOnlyList<long> alertIds, CancellationToken ct)
        {
            foreach (var id in alertIds) seen.Enqueue(id);
            return Task.CompletedTask;
        }
    }

    private sealed class FailingListener : ITriageFollowUp
    {
        public Task AfterTriageAsync(IReadOnlyList<long> alertIds, CancellationToken ct) => throw new InvalidOperationException("GitHub is down");
    }
}

public class AlertTriageTests(TriageApp app) : IClassFixture<TriageApp>
{
    [Fact]
    public async Task Acknowledging_records_who_and_why_changes_the_state_and_tells_the_listeners()
    {
        var id = await app.AddAlertAsync("triage-ack");
        var reader = await app.ClientWithScopesAsync(Scopes.Read);
        var response = await reader.PostAsJsonAsync($"/api/v1/alerts/{id}/state",
            new AlertStateRequest("acknowledged", "known: the new allocator", "https://github.com/acme/app/issues/12"));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var detail = (await response.Content.ReadFromJsonAsync<AlertDetailDto>())!;
        Assert.Equal(("Acknowledged", "https://github.com/acme/app/issues/12"), (detail.Alert.State, detail.Alert.IssueUrl));
        var e = Assert.Single(detail.Events);
        Assert.Equal(("Active", "Acknowledged", "test-read", "known: the new allocator"), (e.FromState, e.ToState, e.Actor, e.Reason));

        var stored = await app.WithDbAsync(db => db.Alerts.AsNoTracking().SingleAsync(a => a.Id == id));
        Assert.Equal(AlertState.Acknowledged, stored.State);
        Assert.True(stored.UpdatedAt > DateTimeOffset.UtcNow.AddMinutes(-1));
        Assert.Equal(1, await app.WithDbAsync(db => db.AlertEvents.CountAsync(x => x.AlertId == id && x.Actor == "test-read")));
        Assert.Contains(id, app.Notified);

        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        Assert.Equal(HttpStatusCode.OK, (await admin.PostAsJsonAsync($"/api/v1/alerts/{id}/state", new AlertStateRequest("Invalid", "noise", null))).StatusCode);
        var after = (await reader.GetFromJsonAsync<AlertDetailDto>($"/api/v1/alerts/{id}"))!;
        Assert.Equal("Invalid", after.Alert.State);
        Assert.Equal("https://github.com/acme/app/issues/12", after.Alert.IssueUrl);
        Assert.Equal(["Acknowledged", "Invalid"], after.Events.Select(x => x.ToState));
    }

    [Fact]
    public async Task Triage_needs_a_read_or_admin_token()
    {
        var id = await app.AddAlertAsync("triage-auth");
        var body = new AlertStateRequest("fixed", null, null);
        Assert.Equal(HttpStatusCode.Unauthorized, (await app.CreateClient().PostAsJsonAsync($"/api/v1/alerts/{id}/state", body)).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await (await app.ClientWithScopesAsync(Scopes.Ingest)).PostAsJsonAsync($"/api/v1/alerts/{id}/state", body)).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await (await app.ClientWithScopesAsync(Scopes.Agent)).PostAsJsonAsync($"/api/v1/alerts/{id}/state", body)).StatusCode);
        Assert.Equal(0, await app.WithDbAsync(db => db.AlertEvents.CountAsync(x => x.AlertId == id)));
    }

    [Theory]
    [InlineData("closed", null)]
    [InlineData("1", null)]
    [InlineData("fixed", "javascript:alert(1)")]
    [InlineData("fixed", "/relative")]
    public async Task Bad_states_and_links_are_validation_problems(string state, string? issueUrl)
    {
        var id = await app.AddAlertAsync("triage-bad-" + Guid.NewGuid().ToString("N")[..6]);
        var response = await (await app.ClientWithScopesAsync(Scopes.Read)).PostAsJsonAsync($"/api/v1/alerts/{id}/state", new AlertStateRequest(state, null, issueUrl));
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(AlertState.Active, await app.WithDbAsync(db => db.Alerts.Where(a => a.Id == id).Select(a => a.State).SingleAsync()));
    }

    [Fact]
    public async Task Alerts_list_filters_by_state_and_project()
    {
        var id = await app.AddAlertAsync("triage-list");
        var client = app.CreateClient();
        var open = (await client.GetFromJsonAsync<Page<AlertDto>>("/api/v1/alerts?project=triage-list&state=open"))!;
        Assert.Equal(id, Assert.Single(open.Items).Id);
        Assert.Empty((await client.GetFromJsonAsync<Page<AlertDto>>("/api/v1/alerts?project=triage-list&state=fixed"))!.Items);
        Assert.Equal(HttpStatusCode.BadRequest, (await client.GetAsync("/api/v1/alerts?state=bogus")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await (await app.ClientWithScopesAsync(Scopes.Read)).PostAsJsonAsync("/api/v1/alerts/999999/state", new AlertStateRequest("fixed", null, null))).StatusCode);
    }
}
