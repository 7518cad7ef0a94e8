using PerfService.Agents.Client;
using PerfService.Core.Contracts;

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

public sealed record Delivery(DeliveryStatus Status, RunCreated? Run, string? Error);

/// <summary>Posts spooled result sets, with the entry's key as Idempotency-Key so a repeat after a crash, a lost
/// answer or another agent's re-run collapses into one run on the service.</summary>
public sealed class RunDelivery(RunSpool spool, PerfServiceClient client)
{
    public async Task<Delivery> DeliverAsync(string key, CancellationToken ct)
    {
        var entry = spool.Read(key);
        var result = await client.PostRunAsync(entry.Run, entry.Files, entry.Key, ct);
        switch (result.Status)
        {
            case ApiStatus.Ok or ApiStatus.NoContent:
                spool.Delete(key);
                return new Delivery(DeliveryStatus.Posted, result.Value, null);
            // A bad token or a sick service says nothing about the content: keep it.
            case ApiStatus.Transient or ApiStatus.Unauthorized:
                return new Delivery(DeliveryStatus.Kept, null, result.ToString());
            default:
                spool.Reject(key, result.ToString());
                return new Delivery(DeliveryStatus.Rejected, null, result.ToString());
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
                    log(
                        $"posted spooled {key} → run {delivery.Run?.RunId}{(delivery.Run?.Duplicate == true ? " (duplicate)" : "")}"
                    );
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
