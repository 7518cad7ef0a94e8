using System.Security.Cryptography;
using PerfService.GitHub;

namespace PerfService.IntegrationTests.GitHub;

public class GitHubOptionsTests
{
    private static string[] Errors(GitHubOptions options) =>
        new GitHubOptionsValidator().Validate(null, options).Failures?.ToArray() ?? [];

    [Fact]
    public void Nothing_configured_is_valid_and_publishes_nothing()
    {
        var options = new GitHubOptions();
        Assert.Empty(Errors(options));
        Assert.False(options.CanPublish);
    }

    [Fact]
    public void Misconfigurations_are_reported_at_start()
    {
        using var rsa = RSA.Create(2048);
        var pem = rsa.ExportRSAPrivateKeyPem();
        Assert.Contains(Errors(new GitHubOptions { ApiBaseUrl = "api.github.com" }), e => e.Contains("ApiBaseUrl"));
        Assert.Contains(Errors(new GitHubOptions { Token = "t", AppId = "1", PrivateKeyPem = pem }), e => e.Contains("not both"));
        Assert.Contains(Errors(new GitHubOptions { AppId = "1" }), e => e.Contains("exactly one"));
        Assert.Contains(Errors(new GitHubOptions { AppId = "1", PrivateKeyFile = "/nonexistent/key.pem" }), e => e.Contains("does not exist"));
        Assert.Contains(Errors(new GitHubOptions { AppId = "1", PrivateKeyPem = "-----BEGIN RSA PRIVATE KEY-----\nnope\n-----END RSA PRIVATE KEY-----" }),
            e => e.Contains("not an RSA key"));
        Assert.Empty(Errors(new GitHubOptions { AppId = "1", PrivateKeyPem = pem }));
        Assert.Empty(Errors(new GitHubOptions { AppId = "Iv1.0123456789abcdef", PrivateKeyPem = pem.Replace("\n", "\\n", StringComparison.Ordinal) }));
    }

    [Fact]
    public void The_api_base_url_gets_its_trailing_slash() =>
        Assert.Equal("https://ghe.example.com/api/v3/", new GitHubOptions { ApiBaseUrl = "https://ghe.example.com/api/v3" }.ApiBaseUri.ToString());
}
