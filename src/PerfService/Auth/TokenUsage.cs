using System.Collections.Concurrent;
using Microsoft.EntityFrameworkCore;
using PerfService.Data;

namespace PerfService.Auth;

/// <summary>
/// Records a token's <c>last_used_at</c> at most once a minute per token and process: an agent heartbeating every few
/// seconds would otherwise turn every request into a write on the tokens table. Other replicas keep their own map,
/// so the column is at most a minute behind the latest use anywhere.
/// </summary>
public sealed class TokenUsage(TimeProvider time)
{
    public static readonly TimeSpan Interval = TimeSpan.FromMinutes(1);
    private readonly ConcurrentDictionary<long, DateTimeOffset> _written = new();

    public async Task RecordAsync(PerfDbContext db, long tokenId, CancellationToken ct)
    {
        var now = time.GetUtcNow();
        if (_written.TryGetValue(tokenId, out var last) && now - last < Interval)
            return;
        // Claim the slot first, so concurrent requests of one token write once.
        if (last == default ? !_written.TryAdd(tokenId, now) : !_written.TryUpdate(tokenId, now, last))
            return;
        await db.Tokens.Where(t => t.Id == tokenId).ExecuteUpdateAsync(s => s.SetProperty(t => t.LastUsedAt, now), ct);
    }
}
