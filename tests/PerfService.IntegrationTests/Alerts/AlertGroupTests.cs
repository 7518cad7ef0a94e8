using Microsoft.Extensions.DependencyInjection;
using PerfService.Alerts;
using PerfService.Dashboard;
using PerfService.Data.Entities;
using PerfService.Hosting.Http;

namespace PerfService.IntegrationTests.Alerts;

/// <summary>
/// Alerts are grouped by <see cref="AlertService"/> as they open: overlapping commit ranges of one project share a
/// group, a bridging alert merges two, other projects never join; triage applies to a group or to one member.
/// </summary>
public class AlertGroupTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private static readonly DateTimeOffset Start = new(2026, 3, 1, 0, 0, 0, TimeSpan.Zero);

    private sealed record Seeded(long ProjectId, long[] Benchmarks, long[] Profiles, long Measure);

    /// <summary>A project with 20 commits on its default branch an hour apart (c00..c19), 3 benchmarks and 2 profiles.</summary>
    private async Task<Seeded> SeedAsync(string slug, string? gitHubRepository = null)
    {
        await app.CreateProjectAsync(slug);
        return await app.WithDbAsync(async db =>
        {
            var project = await db.Projects.SingleAsync(p => p.Slug == slug);
            project.GitHubRepository = gitHubRepository;
            var suite = new Suite { ProjectId = project.Id, Name = "s" };
            db.Suites.Add(suite);
            for (var i = 0; i < 20; i++)
                db.Commits.Add(new Commit { ProjectId = project.Id, Sha = Sha(slug, i), CommittedAt = Start.AddHours(i), FirstSeenAt = Start, OnDefaultBranch = true });
            await db.SaveChangesAsync();
            var benchmarks = new[] { "Map.Get", "Map.Put", "Map.Scan" }.Select(k => new Benchmark { SuiteId = suite.Id, Key = k, Name = k }).ToList();
            db.Benchmarks.AddRange(benchmarks);
            var profiles = new[] { $"{slug}-a", $"{slug}-b" }.Select(n => new HardwareProfile { Name = n }).ToList();
            db.Profiles.AddRange(profiles);
            var measure = new Measure { Name = $"time-{slug}", Unit = "ns" };
            db.Measures.Add(measure);
            await db.SaveChangesAsync();
            return new Seeded(project.Id, benchmarks.Select(b => b.Id).ToArray(), profiles.Select(p => p.Id).ToArray(), measure.Id);
        });
    }

    private static string Sha(string slug, int i) => $"{slug}-c{i:00}";

    private static Alert ChangePoint(Seeded s, string slug, int from, int to, int benchmark, int profile, double change) => new()
    {
        ProjectId = s.ProjectId, Kind = AlertKind.ChangePoint, BenchmarkId = s.Benchmarks[benchmark], MeasureId = s.Measure, ProfileId = s.Profiles[profile],
        GroupKey = $"range:{from}..{to}", FromCommit = Sha(slug, from), ToCommit = Sha(slug, to), Change = change,
        Summary = $"change of {change:P0} between c{from} and c{to}",
    };

    private async Task<List<Alert>> OpenAsync(params Alert[] alerts)
    {
        await using var scope = app.Services.CreateAsyncScope();
        var service = scope.ServiceProvider.GetRequiredService<AlertService>();
        var opened = new List<Alert>();
        // One at a time, as analyses of separate runs raise them.
        foreach (var a in alerts) opened.Add(await service.OpenAsync(a, "test", CancellationToken.None));
        return opened;
    }

    private Task<Dictionary<long, long?>> GroupsAsync(IEnumerable<Alert> alerts)
    {
        var ids = alerts.Select(a => a.Id).ToArray();
        return app.WithDbAsync(db => db.Alerts.Where(a => ids.Contains(a.Id)).ToDictionaryAsync(a => a.Id, a => a.AlertGroupId));
    }

    [Fact]
    public async Task Overlapping_ranges_share_a_group_and_disjoint_or_adjacent_ones_do_not()
    {
        const string slug = "groups-overlap";
        var s = await SeedAsync(slug);
        var a = await OpenAsync(
            ChangePoint(s, slug, 2, 5, 0, 0, 0.20),   // (c02, c05]
            ChangePoint(s, slug, 4, 6, 1, 0, 0.25),   // overlaps it
            ChangePoint(s, slug, 3, 4, 0, 1, 0.18),   // inside it
            ChangePoint(s, slug, 10, 12, 2, 0, -0.3), // disjoint
            ChangePoint(s, slug, 12, 14, 2, 1, 0.4)); // adjacent to the one before: shares only its end commit c12
        var target = (await OpenAsync(new Alert
        {
            ProjectId = s.ProjectId, Kind = AlertKind.Target, BenchmarkId = s.Benchmarks[2], ProfileId = s.Profiles[0], GroupKey = "target:t:a",
            ToCommit = Sha(slug, 11), Summary = "target 't' failed at c11",
        }))[0];

        var groups = await GroupsAsync([.. a, target]);
        Assert.All(groups.Values, g => Assert.NotNull(g));
        Assert.Equal(groups[a[0].Id], groups[a[1].Id]);
        Assert.Equal(groups[a[0].Id], groups[a[2].Id]);
        Assert.NotEqual(groups[a[0].Id], groups[a[3].Id]);
        Assert.NotEqual(groups[a[3].Id], groups[a[4].Id]);
        // A failed target at one commit joins the range holding that commit.
        Assert.Equal(groups[a[3].Id], groups[target.Id]);

        var first = await app.WithDbAsync(db => db.AlertGroups.SingleAsync(g => g.Id == groups[a[0].Id]));
        Assert.Equal((Sha(slug, 2), Sha(slug, 6), AlertState.Active), (first.FromCommit, first.ToCommit, first.State));
        Assert.Equal(3, await app.WithDbAsync(db => db.AlertGroups.CountAsync(g => g.ProjectId == s.ProjectId)));
    }

    [Fact]
    public async Task An_alert_bridging_two_groups_merges_them_into_the_older()
    {
        const string slug = "groups-bridge";
        var s = await SeedAsync(slug);
        var (left, right) = ((await OpenAsync(ChangePoint(s, slug, 2, 4, 0, 0, 0.2)))[0], (await OpenAsync(ChangePoint(s, slug, 6, 8, 1, 0, 0.3)))[0]);
        var before = await GroupsAsync([left, right]);
        Assert.NotEqual(before[left.Id], before[right.Id]);

        var bridge = (await OpenAsync(ChangePoint(s, slug, 3, 7, 2, 1, 0.25)))[0];

        var after = await GroupsAsync([left, right, bridge]);
        var kept = Math.Min(before[left.Id]!.Value, before[right.Id]!.Value);
        Assert.All(after.Values, g => Assert.Equal(kept, g));
        var groups = await app.WithDbAsync(db => db.AlertGroups.Where(g => g.ProjectId == s.ProjectId).ToListAsync());
        var group = Assert.Single(groups);
        Assert.Equal((Sha(slug, 2), Sha(slug, 8)), (group.FromCommit, group.ToCommit));
        // The members that moved say so in their history.
        Assert.True(await app.WithDbAsync(db => db.AlertEvents.AnyAsync(e => e.AlertId == right.Id && e.Reason!.Contains("merged into"))));
    }

    [Fact]
    public async Task A_batch_opens_each_alert_once_returns_open_twins_and_groups_through_its_own_members()
    {
        const string slug = "groups-batch";
        var s = await SeedAsync(slug);
        var existing = (await OpenAsync(ChangePoint(s, slug, 2, 4, 0, 0, 0.2)))[0];
        await using var scope = app.Services.CreateAsyncScope();
        var service = scope.ServiceProvider.GetRequiredService<AlertService>();
        // The first overlaps nothing stored; the second bridges it to the stored alert; the third is the stored one again.
        var result = await service.OpenManyAsync([
            new AlertOpening(ChangePoint(s, slug, 6, 8, 1, 0, 0.3), "first"),
            new AlertOpening(ChangePoint(s, slug, 3, 7, 2, 0, 0.25), "second"),
            new AlertOpening(ChangePoint(s, slug, 2, 4, 0, 0, 0.2), "again"),
        ], CancellationToken.None);

        Assert.Equal(existing.Id, result[2].Id);
        Assert.Equal(3, await app.WithDbAsync(db => db.Alerts.CountAsync(a => a.ProjectId == s.ProjectId)));
        var groups = await GroupsAsync([existing, result[0], result[1]]);
        Assert.Single(groups.Values.Distinct());
        Assert.Equal(1, await app.WithDbAsync(db => db.AlertGroups.CountAsync(g => g.ProjectId == s.ProjectId)));
        Assert.Equal(["first", "second"], await app.WithDbAsync(db => db.AlertEvents
            .Where(e => e.AlertId == result[0].Id || e.AlertId == result[1].Id).Where(e => e.FromState == null).OrderBy(e => e.AlertId).Select(e => e.Reason!).ToListAsync()));
    }

    [Fact]
    public async Task Alerts_of_different_projects_never_group_even_at_the_same_commits_and_times()
    {
        var one = await SeedAsync("groups-proj-one");
        var two = await SeedAsync("groups-proj-two");
        var a = (await OpenAsync(ChangePoint(one, "groups-proj-one", 2, 5, 0, 0, 0.2)))[0];
        var b = (await OpenAsync(ChangePoint(two, "groups-proj-two", 2, 5, 0, 0, 0.2)))[0];
        var groups = await GroupsAsync([a, b]);
        Assert.NotEqual(groups[a.Id], groups[b.Id]);
        Assert.Equal(1, await app.WithDbAsync(db => db.AlertGroups.CountAsync(g => g.ProjectId == one.ProjectId)));
    }

    [Fact]
    public async Task A_pull_requests_regressions_group_by_head_apart_from_main()
    {
        const string slug = "groups-pr";
        var s = await SeedAsync(slug);
        Alert Regression(int benchmark, string head) => new()
        {
            ProjectId = s.ProjectId, Kind = AlertKind.Regression, BenchmarkId = s.Benchmarks[benchmark], MeasureId = s.Measure, ProfileId = s.Profiles[0],
            GroupKey = $"pr:7:{head}", FromCommit = Sha(slug, 4), ToCommit = head, Change = 0.1, Summary = "pr regression",
        };
        var alerts = await OpenAsync(Regression(0, "feed01"), Regression(1, "feed01"), Regression(0, "feed02"), ChangePoint(s, slug, 3, 5, 2, 0, 0.1));
        var groups = await GroupsAsync(alerts);
        Assert.Equal(groups[alerts[0].Id], groups[alerts[1].Id]);
        Assert.NotEqual(groups[alerts[0].Id], groups[alerts[2].Id]);
        Assert.NotEqual(groups[alerts[0].Id], groups[alerts[3].Id]);
    }

    [Fact]
    public async Task Group_triage_changes_every_member_with_an_event_each_and_member_triage_changes_one()
    {
        const string slug = "groups-triage";
        var s = await SeedAsync(slug, gitHubRepository: "acme/app");
        var members = await OpenAsync(ChangePoint(s, slug, 2, 5, 0, 0, 0.2), ChangePoint(s, slug, 3, 5, 1, 0, 0.3), ChangePoint(s, slug, 4, 5, 2, 1, 0.1));
        var groupId = (await GroupsAsync(members)).Values.Distinct().Single()!.Value;
        var reader = await app.ClientWithScopesAsync(Scopes.Read);

        var response = await reader.PostAsJsonAsync($"/api/v1/alert-groups/{groupId}/state", new AlertStateRequest("acknowledged", "known: new hash map", "#12"));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var detail = (await response.Content.ReadFromJsonAsync<AlertGroupDetailDto>())!;
        Assert.Equal(("Acknowledged", "https://github.com/acme/app/issues/12"), (detail.Group.State, detail.Group.IssueUrl));
        Assert.All(detail.Alerts, m => Assert.Equal(("Acknowledged", "https://github.com/acme/app/issues/12"), (m.State, m.IssueUrl)));
        foreach (var m in members)
        {
            var events = (await reader.GetFromJsonAsync<AlertDetailDto>($"/api/v1/alerts/{m.Id}"))!.Events;
            var e = events.Last();
            Assert.Equal(("Active", "Acknowledged", "test-read"), (e.FromState, e.ToState, e.Actor));
            Assert.Equal($"known: new hash map (alert group {groupId})", e.Reason);
        }

        // One member alone: the others keep their state, and the group stays acknowledged while any member is.
        Assert.Equal(HttpStatusCode.OK, (await reader.PostAsJsonAsync($"/api/v1/alerts/{members[0].Id}/state", new AlertStateRequest("invalid", "noise", null))).StatusCode);
        var after = (await reader.GetFromJsonAsync<AlertGroupDetailDto>($"/api/v1/alert-groups/{groupId}"))!;
        Assert.Equal(["Invalid", "Acknowledged", "Acknowledged"], after.Alerts.Select(m => m.State));
        Assert.Equal("Acknowledged", after.Group.State);
        // Reopening one member reopens the group; fixing all closes it as fixed.
        await reader.PostAsJsonAsync($"/api/v1/alerts/{members[1].Id}/state", new AlertStateRequest("active", null, null));
        Assert.Equal("Active", (await reader.GetFromJsonAsync<AlertGroupDetailDto>($"/api/v1/alert-groups/{groupId}"))!.Group.State);
        await reader.PostAsJsonAsync($"/api/v1/alert-groups/{groupId}/state", new AlertStateRequest("fixed", null, null));
        var fixedGroup = (await reader.GetFromJsonAsync<AlertGroupDetailDto>($"/api/v1/alert-groups/{groupId}"))!;
        Assert.Equal("Fixed", fixedGroup.Group.State);
        Assert.Equal("https://github.com/acme/app/issues/12", fixedGroup.Group.IssueUrl);

        // Bad requests change nothing.
        Assert.Equal(HttpStatusCode.BadRequest, (await reader.PostAsJsonAsync($"/api/v1/alert-groups/{groupId}/state", new AlertStateRequest("closed", null, null))).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await reader.PostAsJsonAsync($"/api/v1/alert-groups/{groupId}/state", new AlertStateRequest("fixed", null, "javascript:alert(1)"))).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await app.CreateClient().PostAsJsonAsync($"/api/v1/alert-groups/{groupId}/state", new AlertStateRequest("active", null, null))).StatusCode);
        Assert.Equal("Fixed", (await reader.GetFromJsonAsync<AlertGroupDetailDto>($"/api/v1/alert-groups/{groupId}"))!.Group.State);
    }

    [Fact]
    public async Task The_api_lists_a_projects_groups_with_what_they_cover_filtered_and_paginated()
    {
        const string slug = "groups-api";
        var s = await SeedAsync(slug);
        await OpenAsync(ChangePoint(s, slug, 2, 5, 0, 0, 0.10), ChangePoint(s, slug, 3, 5, 1, 0, 0.30), ChangePoint(s, slug, 4, 6, 1, 1, -0.40),
            ChangePoint(s, slug, 10, 12, 2, 0, 0.05));
        var client = app.CreateClient();

        var page = (await client.GetFromJsonAsync<Page<AlertGroupDto>>($"/api/v1/projects/{slug}/alert-groups"))!;
        Assert.Equal(2, page.Items.Count);
        Assert.Null(page.Next);
        var big = page.Items.Single(g => g.Members == 3);
        Assert.Equal((slug, "Active", Sha(slug, 2), Sha(slug, 6)), (big.Project, big.State, big.FromCommit, big.ToCommit));
        Assert.Equal(["Map.Get", "Map.Put"], big.Benchmarks.Select(b => b.Key));
        Assert.Equal([$"{slug}-a", $"{slug}-b"], big.Profiles);
        Assert.Equal(["ChangePoint"], big.Kinds);
        Assert.Equal(-0.40, big.LargestChange!.Value, 6);
        Assert.Equal(0.10, big.MedianChange!.Value, 6);
        // Newest first.
        Assert.True(page.Items[0].Id > page.Items[1].Id);

        var first = (await client.GetFromJsonAsync<Page<AlertGroupDto>>($"/api/v1/projects/{slug}/alert-groups?limit=1"))!;
        Assert.NotNull(first.Next);
        var second = (await client.GetFromJsonAsync<Page<AlertGroupDto>>(first.Next))!;
        Assert.Equal(page.Items.Select(g => g.Id), first.Items.Concat(second.Items).Select(g => g.Id));

        var reader = await app.ClientWithScopesAsync(Scopes.Read);
        await reader.PostAsJsonAsync($"/api/v1/alert-groups/{page.Items[1].Id}/state", new AlertStateRequest("invalid", null, null));
        Assert.Equal([page.Items[0].Id], (await client.GetFromJsonAsync<Page<AlertGroupDto>>($"/api/v1/projects/{slug}/alert-groups?state=open"))!.Items.Select(g => g.Id));
        Assert.Equal([page.Items[1].Id], (await client.GetFromJsonAsync<Page<AlertGroupDto>>($"/api/v1/projects/{slug}/alert-groups?state=invalid"))!.Items.Select(g => g.Id));
        Assert.Equal(HttpStatusCode.BadRequest, (await client.GetAsync($"/api/v1/projects/{slug}/alert-groups?state=closed")).StatusCode);

        var detail = (await client.GetFromJsonAsync<AlertGroupDetailDto>($"/api/v1/alert-groups/{big.Id}"))!;
        Assert.Equal(3, detail.Alerts.Count);
        Assert.All(detail.Alerts, m => Assert.Equal(big.Id, m.GroupId));
        // Every alert names its group in the alerts list too.
        var alerts = (await client.GetFromJsonAsync<Page<AlertDto>>($"/api/v1/alerts?project={slug}&state="))!;
        Assert.All(alerts.Items, a => Assert.NotNull(a.GroupId));
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/api/v1/alert-groups/999999999")).StatusCode);
    }
}
