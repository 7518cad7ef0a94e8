using PerfService.Agents.Client;
using PerfService.Agents.Worker;

namespace PerfService.Agents.Spool;

public enum DeliveryStatus
{
    /// <summary>The service has it (created now, or a duplicate of an earlier post): removed from the spool.</summary>
    Posted,

    /// <summary>The service refused the content (4xx): moved to spool/rejected/.</summary>
    Rejected,

    /// <summary>The service could not be reached (or failed): kept in the spool for later.</summary>
    Kept,
}

/// <param name="Stored">What the service stored it as ("run 77", "profile 12 (duplicate)").</param>
/// <param name="Answer">How the last post ended.</param>
public sealed record Delivery(DeliveryStatus Status, string? Stored, string? Error, ApiStatus Answer);

/// <summary>Posts spooled result sets and profiles, with the entry's key as Idempotency-Key so a repeat after a crash,
/// a lost answer or another agent's re-run collapses into one run (one profile) on the service.</summary>
/// <param name="backoff">The delays between the attempts of <see cref="DeliverRetryingAsync"/>.</param>
public sealed class RunDelivery(
    RunSpool spool,
    PerfServiceClient client,
    TimeProvider? clock = null,
    Backoff? backoff = null,
    Func<double>? random = null
)
{
    private readonly TimeProvider _clock = clock ?? TimeProvider.System;
    private readonly Backoff _backoff = backoff ?? Backoff.Default;
    private readonly Func<double> _random = random ?? Random.Shared.NextDouble;

    public async Task<Delivery> DeliverAsync(string key, CancellationToken ct)
    {
        var entry = spool.Read(key);
        var (status, stored, error) = entry.Profile is { } profile
            ? Said(
                await client.PostProfileAsync(profile, entry.Files.Single(), entry.Key, ct),
                p => $"profile {p.ProfileId}{(p.Duplicate ? " (duplicate)" : "")}"
            )
            : Said(
                await client.PostRunAsync(entry.Run!, entry.Files, entry.Key, ct),
                r => $"run {r.RunId}{(r.Duplicate ? " (duplicate)" : "")}"
            );
        switch (status)
        {
            case ApiStatus.Ok or ApiStatus.NoContent:
                spool.Delete(key);
                return new Delivery(DeliveryStatus.Posted, stored, null, status);
            // A bad token or a sick service says nothing about the content: keep it.
            case ApiStatus.Transient or ApiStatus.Unauthorized:
                return new Delivery(DeliveryStatus.Kept, null, error, status);
            default:
                spool.Reject(key, error);
                return new Delivery(DeliveryStatus.Rejected, null, error, status);
        }
    }

    private static (ApiStatus, string?, string) Said<T>(ApiResult<T> result, Func<T, string> stored) =>
        (result.Status, result.Value is { } value ? stored(value) : null, result.ToString());

    /// <summary>Posts now, and again with backoff while the service answers with a transient failure (5xx, 408, 429,
    /// no connection, no answer) and <paramref name="budget"/> lasts; the entry stays spooled if it never gets
    /// through.</summary>
    public async Task<Delivery> DeliverRetryingAsync(
        string key,
        TimeSpan budget,
        Action<string> log,
        CancellationToken ct
    )
    {
        var started = _clock.GetTimestamp();
        for (var failures = 1; ; failures++)
        {
            var delivery = await DeliverAsync(key, ct);
            var delay = _backoff.Delay(failures, _random());
            if (delivery.Answer != ApiStatus.Transient || _clock.GetElapsedTime(started) + delay > budget)
                return delivery;
            log($"could not post {key} ({delivery.Error}); retry #{failures} in {delay.TotalSeconds:0.0} s");
            await Task.Delay(delay, _clock, ct);
        }
    }

    /// <summary>Posts everything pending, oldest first; stops at the first entry that must be kept (the service
    /// is most likely down, and the rest would only wait for their timeouts).</summary>
    /// <returns>True when something is still waiting.</returns>
    public async Task<bool> DrainAsync(Action<string> log, CancellationToken ct)
    {
        foreach (var key in spool.Pending())
        {
            var delivery = await DeliverAsync(key, ct);
            switch (delivery.Status)
            {
                case DeliveryStatus.Posted:
                    log($"posted spooled {key} → {delivery.Stored}");
                    break;
                case DeliveryStatus.Rejected:
                    log(
                        $"error: the service refused spooled {key}: {delivery.Error}; kept in {spool.Root}/{RunSpool.RejectedDir}"
                    );
                    break;
                default:
                    log($"spool: {key} kept for later: {delivery.Error}");
                    return true;
            }
        }
        return false;
    }
}
