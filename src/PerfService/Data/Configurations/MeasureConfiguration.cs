using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class MeasureConfiguration : IEntityTypeConfiguration<Measure>
{
    public void Configure(EntityTypeBuilder<Measure> b)
    {
        b.Property(x => x.Name).HasMaxLength(200);
        b.Property(x => x.Unit).HasMaxLength(64);
        b.HasIndex(x => new { x.Name, x.Unit }).IsUnique();
    }
}
