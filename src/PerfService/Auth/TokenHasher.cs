using System.Security.Cryptography;
using System.Text;

namespace PerfService.Auth;

/// <summary>
/// Tokens are 32 random bytes, shown once as <c>perf_</c> + base64url. Only their SHA-256 is stored: the secret has
/// full
/// entropy, so a slow password hash would add nothing but latency to every request.
/// </summary>
public static class TokenHasher
{
    public const string Prefix = "perf_";

    public static string NewSecret() => Prefix + Base64Url(RandomNumberGenerator.GetBytes(32));

    public static byte[] Hash(string secret) => SHA256.HashData(Encoding.UTF8.GetBytes(secret));

    private static string Base64Url(byte[] bytes) =>
        Convert.ToBase64String(bytes).TrimEnd('=').Replace('+', '-').Replace('/', '_');
}
