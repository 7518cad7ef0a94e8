namespace PerfService.Data.Entities;

/// <summary>A GitHub webhook delivery already handled (X-GitHub-Delivery, and the SHA-256 of its signed body): a
/// redelivery, or the same signed body replayed under a new delivery id, is ignored.</summary>
public class WebhookDelivery
{
    public long Id { get; set; }
    public required string DeliveryId { get; set; }
    public required string Event { get; set; }

    /// <summary>Hex SHA-256 of the raw body; null only for deliveries recorded before it was kept.</summary>
    public string? BodySha256 { get; set; }
    public DateTimeOffset ReceivedAt { get; set; }
}
