using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class RawArtifactConfiguration : IEntityTypeConfiguration<RawArtifact>
{
    public void Configure(EntityTypeBuilder<RawArtifact> b)
    {
        b.ToTable("artifacts");
        b.Property(x => x.Path).HasMaxLength(1000);
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => x.RunId);
    }
}
