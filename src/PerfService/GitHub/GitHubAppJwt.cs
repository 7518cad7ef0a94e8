using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Microsoft.Extensions.Options;

namespace PerfService.GitHub;

/// <summary>
/// The short-lived RS256 JWT a GitHub App signs with its private key to ask for installation tokens. Written by hand:
/// three base64url parts and one RSA signature do not need a JWT library.
/// </summary>
public sealed class GitHubAppJwt(IOptions<GitHubOptions> options, TimeProvider time) : IDisposable
{
    private static readonly string s_header = Encode(
        JsonSerializer.SerializeToUtf8Bytes(new { alg = "RS256", typ = "JWT" })
    );
    private readonly Lazy<RSA> _key = new(() =>
    {
        var rsa = RSA.Create();
        rsa.ImportFromPem(options.Value.ReadPrivateKeyPem());
        return rsa;
    });

    public string Create()
    {
        var now = time.GetUtcNow().ToUnixTimeSeconds();
        var appId = options.Value.AppId!.Trim();
        // Issued a minute in the past against clock drift, as GitHub advises; GitHub refuses expiries over 10 minutes
        // ahead.
        object issuer = long.TryParse(appId, out var numeric) ? numeric : appId;
        var payload = Encode(
            JsonSerializer.SerializeToUtf8Bytes(
                new
                {
                    iat = now - 60,
                    exp = now + 540,
                    iss = issuer,
                }
            )
        );
        var signed = s_header + "." + payload;
        var signature = _key.Value.SignData(
            Encoding.ASCII.GetBytes(signed),
            HashAlgorithmName.SHA256,
            RSASignaturePadding.Pkcs1
        );
        return signed + "." + Encode(signature);
    }

    private static string Encode(byte[] bytes) => Base64Url.EncodeToString(bytes);

    public void Dispose()
    {
        if (_key.IsValueCreated)
            _key.Value.Dispose();
    }
}
