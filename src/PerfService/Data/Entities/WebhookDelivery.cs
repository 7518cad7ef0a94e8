namespace PerfService.Data.Entities;

/// <summary>A GitHub webhook delivery already handled (X-GitHub-Delivery): a redelivery is ignored.</summary>
public class WebhookDelivery
{
    public long Id { get; set; }
    public required string DeliveryId { get; set; }
    public required string Event { get; set; }
    public DateTimeOffset ReceivedAt { get; set; }
}
