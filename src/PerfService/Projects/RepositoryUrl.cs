using System.Text.RegularExpressions;

namespace PerfService.Projects;

/// <summary>
/// A project's repository URL, which agents clone. Credentials in it would be shown to every reader of the project
/// (API, dashboard, logs): new ones are refused, and any stored before that rule are shown with the user part hidden.
/// </summary>
public static partial class RepositoryUrl
{
    public const string CredentialsRule =
        "must not carry credentials (user:password@ or a token@ in an http(s) URL); give the agents a credential helper or deploy key instead";

    public static bool HasCredentials(string? url)
    {
        if (string.IsNullOrEmpty(url))
            return false;
        if (Uri.TryCreate(url, UriKind.Absolute, out var uri) && !uri.IsFile && uri.UserInfo.Length > 0)
            // ssh://git@host/… names a login, not a secret; in http(s) any user part is a token or a password.
            return uri.Scheme is "http" or "https" || uri.UserInfo.Contains(':');
        return ScpPassword().IsMatch(url);
    }

    /// <summary>The URL as it may be shown: the user part of an http(s) URL, or any password, replaced by
    /// ***.</summary>
    public static string? Redact(string? url)
    {
        if (!HasCredentials(url))
            return url;
        if (Uri.TryCreate(url, UriKind.Absolute, out var uri))
            return new UriBuilder(uri) { UserName = "***", Password = "" }.Uri.ToString();
        return ScpPassword().Replace(url!, "***@");
    }

    // scp-like syntax, user:password@host:path (git itself reads user@host:path).
    [GeneratedRegex("^[^@/:]+:[^@/]*@")]
    private static partial Regex ScpPassword();
}
