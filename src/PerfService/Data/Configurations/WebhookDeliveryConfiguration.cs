using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class WebhookDeliveryConfiguration : IEntityTypeConfiguration<WebhookDelivery>
{
    public void Configure(EntityTypeBuilder<WebhookDelivery> b)
    {
        b.Property(x => x.DeliveryId).HasMaxLength(100);
        b.Property(x => x.Event).HasMaxLength(64);
        b.Property(x => x.BodySha256).HasMaxLength(64);
        b.HasIndex(x => x.DeliveryId).IsUnique();
        // The same signed body under a new delivery id is a replay.
        b.HasIndex(x => x.BodySha256).IsUnique();
    }
}
