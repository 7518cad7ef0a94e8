using System.ComponentModel.DataAnnotations;
using System.Security.Cryptography;
using Microsoft.Extensions.Options;

namespace PerfService.GitHub;

/// <summary>
/// Section "GitHub". Publishing authenticates either as a GitHub App (AppId + PrivateKeyPem or PrivateKeyFile) or with
/// a plain Token; with neither, webhooks still queue jobs and nothing is posted. Secrets come from the environment
/// (GitHub__WebhookSecret, GitHub__Token, GitHub__PrivateKeyPem).
/// </summary>
public sealed class GitHubOptions
{
    public const string Section = "GitHub";

    /// <summary>REST API root: https://api.github.com/, or https://HOST/api/v3/ for GitHub Enterprise Server.</summary>
    [Required]
    public string ApiBaseUrl { get; set; } = "https://api.github.com/";

    public string? WebhookSecret { get; set; }
    public string? Token { get; set; }

    /// <summary>The App's id or client id: the JWT's issuer.</summary>
    public string? AppId { get; set; }
    public string? PrivateKeyPem { get; set; }
    public string? PrivateKeyFile { get; set; }

    /// <summary>A rate limit that resets sooner than this is waited out in the job; a later one reschedules
    /// it.</summary>
    [Range(0, 3600)]
    public int MaxRateLimitWaitSeconds { get; set; } = 60;

    /// <summary>Tries of one step on 5xx and network errors before the job fails and Hangfire's back-off takes
    /// over.</summary>
    [Range(1, 10)]
    public int TransientAttempts { get; set; } = 3;

    [Range(0, 60_000)]
    public int TransientDelayMilliseconds { get; set; } = 1_000;

    /// <summary>How long one call to GitHub may take before it counts as a (transient) failure; Octokit's own default
    /// is 100 s.</summary>
    [Range(1, 300)]
    public int RequestTimeoutSeconds { get; set; } = 30;

    /// <summary>Webhook bodies one process reads (and checks the signature of) at once; more wait, see <see
    /// cref="WebhookQueueSeconds"/>.</summary>
    [Range(1, 1_000)]
    public int MaxConcurrentWebhooks { get; set; } = 8;

    /// <summary>How long a delivery waits for a slot before it is answered 503 (GitHub itself gives up after 10
    /// s).</summary>
    [Range(0, 60)]
    public int WebhookQueueSeconds { get; set; } = 5;

    public bool UsesApp => !string.IsNullOrWhiteSpace(AppId);
    public bool CanPublish => UsesApp || !string.IsNullOrWhiteSpace(Token);

    public Uri ApiBaseUri => new(ApiBaseUrl.EndsWith('/') ? ApiBaseUrl : ApiBaseUrl + "/");

    /// <summary>The App's private key; PEM text from an environment variable may carry literal "\n".</summary>
    public string ReadPrivateKeyPem()
    {
        var pem = !string.IsNullOrWhiteSpace(PrivateKeyPem) ? PrivateKeyPem : File.ReadAllText(PrivateKeyFile!);
        return pem.Contains('\n') ? pem : pem.Replace("\\n", "\n", StringComparison.Ordinal);
    }
}

public sealed class GitHubOptionsValidator : IValidateOptions<GitHubOptions>
{
    public ValidateOptionsResult Validate(string? name, GitHubOptions o)
    {
        var errors = new List<string>();
        if (
            !Uri.TryCreate(o.ApiBaseUrl, UriKind.Absolute, out var api)
            || (api.Scheme != Uri.UriSchemeHttps && api.Scheme != Uri.UriSchemeHttp)
        )
            errors.Add("GitHub:ApiBaseUrl must be an absolute http(s) URL");
        if (o.UsesApp && !string.IsNullOrWhiteSpace(o.Token))
            errors.Add("set either GitHub:AppId (GitHub App) or GitHub:Token, not both");
        var hasPem = !string.IsNullOrWhiteSpace(o.PrivateKeyPem);
        var hasFile = !string.IsNullOrWhiteSpace(o.PrivateKeyFile);
        if (o.UsesApp && hasPem == hasFile)
            errors.Add("a GitHub App needs exactly one of GitHub:PrivateKeyPem and GitHub:PrivateKeyFile");
        else if (o.UsesApp && hasFile && !File.Exists(o.PrivateKeyFile))
            errors.Add($"GitHub:PrivateKeyFile '{o.PrivateKeyFile}' does not exist");
        else if (o.UsesApp && !CanRead(o))
            errors.Add("the GitHub App private key is not an RSA key in PEM form");
        return errors.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(errors);
    }

    private static bool CanRead(GitHubOptions o)
    {
        try
        {
            using var rsa = RSA.Create();
            rsa.ImportFromPem(o.ReadPrivateKeyPem());
            return true;
        }
        catch (Exception e) when (e is ArgumentException or CryptographicException or IOException)
        {
            return false;
        }
    }
}
