using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class ThresholdOverrideConfiguration : IEntityTypeConfiguration<ThresholdOverride>
{
    public const int MaxPattern = 400;
    public const int MaxMeasure = 200;

    public void Configure(EntityTypeBuilder<ThresholdOverride> b)
    {
        b.Property(x => x.Pattern).HasMaxLength(MaxPattern);
        b.Property(x => x.Measure).HasMaxLength(MaxMeasure);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        // One rule per pattern × measure; "no measure" counts as one value, so an unrestricted rule cannot repeat
        // either.
        b.HasIndex(x => new
            {
                x.ProjectId,
                x.Pattern,
                x.Measure,
            })
            .IsUnique()
            .AreNullsDistinct(false);
    }
}
