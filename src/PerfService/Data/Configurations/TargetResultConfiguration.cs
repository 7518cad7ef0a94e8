using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class TargetResultConfiguration : IEntityTypeConfiguration<TargetResult>
{
    public void Configure(EntityTypeBuilder<TargetResult> b)
    {
        b.Property(x => x.Name).HasMaxLength(300);
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Target>().WithMany().HasForeignKey(x => x.TargetId).OnDelete(DeleteBehavior.SetNull);
        b.HasIndex(x => x.RunId);
    }
}
