using System.Buffers;
using System.Security.Cryptography;
using System.Text;
using Microsoft.AspNetCore.WebUtilities;
using Microsoft.Extensions.Options;
using PerfService.Hosting;

namespace PerfService.GitHub;

/// <summary>Webhook bodies read at once by one process (<see cref="GitHubOptions.MaxConcurrentWebhooks"/>); more wait,
/// then 503.</summary>
public sealed class WebhookGate(IOptions<GitHubOptions> options, TimeProvider time)
    : ConcurrencyGate(
        options.Value.MaxConcurrentWebhooks,
        TimeSpan.FromSeconds(options.Value.WebhookQueueSeconds),
        time
    );

public enum WebhookBodyRead
{
    Signed,
    Unsigned,
    TooLarge,
}

/// <summary>
/// Reads a delivery's body without holding an unsigned one in memory: a request whose signature header is missing or
/// malformed is refused before its body is read; any other body is hashed (HMAC) while it streams into a spool that
/// keeps at most <see cref="MemoryBytes"/> in memory and the rest in a temporary file, deleted when the read ends.
/// Only a body whose signature matches is then copied into memory, once, at its exact size.
/// </summary>
public static class WebhookBody
{
    public const int MemoryBytes = 64 * 1024;

    public static async Task<(WebhookBodyRead Read, byte[]? Body)> ReadAsync(
        Stream body,
        string? secret,
        string? header,
        long maxBytes,
        CancellationToken ct
    )
    {
        var given = new byte[HMACSHA256.HashSizeInBytes];
        if (string.IsNullOrEmpty(secret) || !WebhookSignature.TryParse(header, given))
            return (WebhookBodyRead.Unsigned, null);

        using var hmac = IncrementalHash.CreateHMAC(HashAlgorithmName.SHA256, Encoding.UTF8.GetBytes(secret));
        await using var spool = new FileBufferingWriteStream(MemoryBytes);
        var chunk = ArrayPool<byte>.Shared.Rent(81_920);
        long total = 0;
        try
        {
            int read;
            while ((read = await body.ReadAsync(chunk, ct)) > 0)
            {
                if ((total += read) > maxBytes)
                    return (WebhookBodyRead.TooLarge, null);
                hmac.AppendData(chunk, 0, read);
                await spool.WriteAsync(chunk.AsMemory(0, read), ct);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(chunk);
        }
        // Constant time, so the response time does not tell an attacker how many leading bytes were right.
        if (!CryptographicOperations.FixedTimeEquals(hmac.GetHashAndReset(), given))
            return (WebhookBodyRead.Unsigned, null);
        var signed = new byte[total];
        await spool.DrainBufferAsync(new MemoryStream(signed), ct);
        return (WebhookBodyRead.Signed, signed);
    }
}
