using System.Buffers;
using System.Security.Cryptography;
using System.Text;

namespace PerfService.GitHub;

/// <summary>GitHub signs each delivery's raw body: <c>X-Hub-Signature-256: sha256=HEX(HMAC-SHA256(secret,
/// body))</c>.</summary>
public static class WebhookSignature
{
    public const string Header = "X-Hub-Signature-256";
    private const string Prefix = "sha256=";

    /// <summary>The signature a header carries, if it is one: "sha256=" and 64 hex digits.</summary>
    public static bool TryParse(string? header, Span<byte> given)
    {
        if (header is null || !header.StartsWith(Prefix, StringComparison.Ordinal))
            return false;
        var hex = header.AsSpan(Prefix.Length);
        return hex.Length == given.Length * 2
            && Convert.FromHexString(hex, given, out _, out _) == OperationStatus.Done;
    }

    public static bool IsValid(string? secret, string? header, ReadOnlySpan<byte> body)
    {
        Span<byte> given = stackalloc byte[HMACSHA256.HashSizeInBytes];
        if (string.IsNullOrEmpty(secret) || !TryParse(header, given))
            return false;
        Span<byte> expected = stackalloc byte[HMACSHA256.HashSizeInBytes];
        HMACSHA256.HashData(Encoding.UTF8.GetBytes(secret), body, expected);
        // Constant time, so the response time does not tell an attacker how many leading bytes were right.
        return CryptographicOperations.FixedTimeEquals(expected, given);
    }

    public static string Sign(string secret, ReadOnlySpan<byte> body) =>
        Prefix + Convert.ToHexStringLower(HMACSHA256.HashData(Encoding.UTF8.GetBytes(secret), body));
}
