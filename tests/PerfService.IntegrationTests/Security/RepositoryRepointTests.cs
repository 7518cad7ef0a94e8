using System.Net.Http.Headers;
using Microsoft.AspNetCore.Mvc;

namespace PerfService.IntegrationTests.Security;

/// <summary>
/// A project's repository (its GitHub repository, whose events and jobs it receives, and the URL agents clone) is
/// changed only by an admin of the whole service; credentials never enter a repository URL, and any stored before are
/// not shown.
/// </summary>
public class RepositoryRepointTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private async Task<HttpClient> BoundAdminAsync(string slug)
    {
        var project = await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == slug).Select(p => p.Id).SingleAsync());
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer",
            await app.WithDbAsync(db => TokenCommands.CreateAsync(db, $"admin-of-{slug}", [Scopes.Admin], project)));
        return client;
    }

    private Task<(string? GitHub, string? Url)> RepositoryOfAsync(string slug) =>
        app.WithDbAsync(async db => await db.Projects.Where(p => p.Slug == slug).Select(p => new { p.GitHubRepository, p.RepositoryUrl }).SingleAsync() is var p
            ? (p.GitHubRepository, p.RepositoryUrl) : default);

    [Fact]
    public async Task A_bound_admin_cannot_repoint_its_project_but_changes_its_other_settings_and_an_unbound_admin_repoints()
    {
        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        (await admin.PostAsJsonAsync("/api/v1/projects", new { slug = "repo-b", name = "B", isPublic = false, gitHubRepository = "owner/B", repositoryUrl = "https://git.example.com/private/b.git" })).EnsureSuccessStatusCode();
        (await admin.PostAsJsonAsync("/api/v1/projects", new { slug = "repo-c", name = "C", gitHubRepository = "owner/C", repositoryUrl = "https://git.example.com/c.git" })).EnsureSuccessStatusCode();
        var adminOfC = await BoundAdminAsync("repo-c");

        foreach (var attack in new object[]
                 {
                     new { gitHubRepository = "owner/B" },
                     new { repositoryUrl = "https://git.example.com/private/b.git" },
                     new { repositoryUrl = "/srv/git/private-b" },
                     new { repositoryUrl = "file:///etc" },
                 })
        {
            var refused = await adminOfC.PatchAsJsonAsync("/api/v1/projects/repo-c", attack);
            Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
            Assert.Contains("bound to no project", (await refused.Content.ReadFromJsonAsync<ProblemDetails>())!.Detail);
        }
        Assert.Equal(("owner/C", "https://git.example.com/c.git"), await RepositoryOfAsync("repo-c"));

        // The honest paths: C's admin renames C (sending its current repository back is no change), and an admin
        // bound to no project moves C to another repository.
        Assert.Equal(HttpStatusCode.OK, (await adminOfC.PatchAsJsonAsync("/api/v1/projects/repo-c", new { name = "C renamed", gitHubRepository = "owner/C" })).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await admin.PatchAsJsonAsync("/api/v1/projects/repo-c", new { gitHubRepository = "owner/C2", repositoryUrl = "https://git.example.com/c2.git" })).StatusCode);
        Assert.Equal(("owner/C2", "https://git.example.com/c2.git"), await RepositoryOfAsync("repo-c"));
    }

    [Theory]
    [InlineData("https://x-access-token:ghp_secret@github.com/owner/a.git")]
    [InlineData("https://ghp_secret@github.com/owner/a.git")]
    [InlineData("ssh://git:hunter2@git.example.com/a.git")]
    [InlineData("git:hunter2@git.example.com:owner/a.git")]
    public async Task Credentials_in_a_repository_url_are_refused(string url)
    {
        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        var slug = $"cred-{Math.Abs(url.GetHashCode()) % 100000}";
        var created = await admin.PostAsJsonAsync("/api/v1/projects", new { slug, name = slug, repositoryUrl = url });
        Assert.Equal(HttpStatusCode.BadRequest, created.StatusCode);
        Assert.DoesNotContain("secret", await created.Content.ReadAsStringAsync());
        Assert.Contains("credentials", await created.Content.ReadAsStringAsync());

        (await admin.PostAsJsonAsync("/api/v1/projects", new { slug, name = slug, repositoryUrl = "ssh://git@git.example.com/owner/a.git" })).EnsureSuccessStatusCode();
        Assert.Equal(HttpStatusCode.BadRequest, (await admin.PatchAsJsonAsync($"/api/v1/projects/{slug}", new { repositoryUrl = url })).StatusCode);
        Assert.Equal((null, "ssh://git@git.example.com/owner/a.git"), await RepositoryOfAsync(slug));
    }

    [Fact]
    public async Task Credentials_stored_before_the_rule_are_not_shown()
    {
        await app.CreateProjectAsync("cred-stored");
        await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == "cred-stored")
            .ExecuteUpdateAsync(s => s.SetProperty(p => p.RepositoryUrl, "https://x-access-token:ghp_stored@github.com/owner/a.git")));
        var anonymous = app.CreateClient();
        foreach (var url in new[] { "/api/v1/projects/cred-stored", "/api/v1/projects", "/api/v1/projects/cred-stored/overview" })
        {
            var body = await anonymous.GetStringAsync(url);
            Assert.DoesNotContain("ghp_stored", body);
            Assert.DoesNotContain("x-access-token", body);
        }
        Assert.Contains("github.com/owner/a.git", await anonymous.GetStringAsync("/api/v1/projects/cred-stored"));
    }
}
