using System.Buffers;
using System.Security.Cryptography;
using System.Text;

namespace PerfService.GitHub;

/// <summary>GitHub signs each delivery's raw body: <c>X-Hub-Signature-256: sha256=HEX(HMAC-SHA256(secret, body))</c>.</summary>
public static class WebhookSignature
{
    public const string Header = "X-Hub-Signature-256";
    private const string Prefix = "sha256=";

    public static bool IsValid(string? secret, string? header, ReadOnlySpan<byte> body)
    {
        if (string.IsNullOrEmpty(secret) || header is null || !header.StartsWith(Prefix, StringComparison.Ordinal)) return false;
        var hex = header.AsSpan(Prefix.Length);
        Span<byte> given = stackalloc byte[HMACSHA256.HashSizeInBytes];
        if (hex.Length != given.Length * 2 || Convert.FromHexString(hex, given, out _, out _) != OperationStatus.Done) return false;
        Span<byte> expected = stackalloc byte[HMACSHA256.HashSizeInBytes];
        HMACSHA256.HashData(Encoding.UTF8.GetBytes(secret), body, expected);
        // Constant time, so the response time does not tell an attacker how many leading bytes were right.
        return CryptographicOperations.FixedTimeEquals(expected, given);
    }

    public static string Sign(string secret, ReadOnlySpan<byte> body) =>
        Prefix + Convert.ToHexStringLower(HMACSHA256.HashData(Encoding.UTF8.GetBytes(secret), body));
}
