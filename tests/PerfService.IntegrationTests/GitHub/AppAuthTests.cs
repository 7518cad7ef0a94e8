using System.Net.Http.Headers;
using System.Security.Cryptography;
using Microsoft.Extensions.Options;
using PerfService.GitHub;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>Publishing as a GitHub App: JWT, installation lookup, installation tokens cached and renewed.</summary>
public class AppAuthTests(GitHubAppFixture fixture) : IClassFixture<GitHubAppFixture>
{
    private FakeGitHub GitHub => fixture.GitHub;

    [Fact]
    public async Task Publishes_with_an_installation_token_from_a_signed_jwt()
    {
        var id = await fixture.CreateProjectAsync("app-publish", "app-org/app-publish");
        var head = GitHubFixture.Sha("app-publish");
        fixture.Reports.Set(id, Reports.Regressed("app-publish", 1, head));

        await fixture.PublishAsync(id, 1);

        Assert.Empty(GitHub.RejectedCredentials);
        var lookup = Assert.Single(GitHub.CallsTo("GET", "/repos/app-org/app-publish/installation"));
        Assert.StartsWith("Bearer ey", lookup.Authorization);
        var installation = GitHub.InstallationFor("app-org");
        Assert.Single(GitHub.CallsTo("POST", $"/app/installations/{installation}/access_tokens"));
        Assert.All(GitHub.CallsTo("POST", "/repos/app-org/app-publish/"), c => Assert.StartsWith("token ghs_", c.Authorization, StringComparison.OrdinalIgnoreCase));
        Assert.Single(GitHub.CommentsOn("app-org/app-publish", 1));
        Assert.Equal("failure", Assert.Single(GitHub.StatusesOf("app-org/app-publish", head)).State);
    }

    [Fact]
    public async Task Installation_tokens_are_cached_and_renewed_before_they_expire()
    {
        var id = await fixture.CreateProjectAsync("app-renew", "renew-org/app-renew");
        var tokens = $"/app/installations/{GitHub.InstallationFor("renew-org")}/access_tokens";
        async Task PublishAsync(int version)
        {
            fixture.Reports.Set(id, Reports.Regressed("app-renew", 2, GitHubFixture.Sha($"app-renew-{version}")));
            await fixture.PublishAsync(id, 2);
        }

        try
        {
            // Tokens that expire within five minutes are renewed at their next use.
            GitHub.TokenLifetime = TimeSpan.FromMinutes(4);
            await PublishAsync(1);
            await PublishAsync(2);
            Assert.Equal(2, GitHub.CallsTo("POST", tokens).Count);

            GitHub.TokenLifetime = TimeSpan.FromHours(1);
            await PublishAsync(3);
            await PublishAsync(4);
            Assert.Equal(3, GitHub.CallsTo("POST", tokens).Count);
        }
        finally
        {
            GitHub.TokenLifetime = TimeSpan.FromHours(1);
        }
        Assert.Single(GitHub.CallsTo("GET", "/repos/renew-org/app-renew/installation"));
        Assert.Single(GitHub.StatusesOf("renew-org/app-renew", GitHubFixture.Sha("app-renew-4")));
        Assert.Empty(GitHub.RejectedCredentials);
    }

    [Fact]
    public async Task A_jwt_signed_with_another_key_is_refused()
    {
        using var other = RSA.Create(2048);
        var options = Options.Create(new GitHubOptions { AppId = FakeGitHub.AppId, PrivateKeyPem = other.ExportPkcs8PrivateKeyPem() });
        using var jwt = new GitHubAppJwt(options, TimeProvider.System);
        using var http = new HttpClient { BaseAddress = new Uri(GitHub.Url) };
        var request = new HttpRequestMessage(HttpMethod.Get, "repos/someone/repo/installation");
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", jwt.Create());
        request.Headers.UserAgent.ParseAdd("PerfService-tests");

        var response = await http.SendAsync(request);

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.Contains("\"message\":\"A JSON web token could not be decoded\"", await response.Content.ReadAsStringAsync());
    }
}
