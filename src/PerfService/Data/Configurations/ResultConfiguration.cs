using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class ResultConfiguration : IEntityTypeConfiguration<Result>
{
    public void Configure(EntityTypeBuilder<Result> b)
    {
        b.Property(x => x.Samples).HasColumnType("double precision[]");
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Benchmark>().WithMany().HasForeignKey(x => x.BenchmarkId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Measure>().WithMany().HasForeignKey(x => x.MeasureId);
        b.HasIndex(x => new { x.RunId, x.BenchmarkId, x.MeasureId }).IsUnique();
        // A benchmark's history on one profile and branch in commit order: one range scan.
        b.HasIndex(x => new { x.BenchmarkId, x.MeasureId, x.ProfileId, x.BranchId, x.SeriesAt })
            .IncludeProperties(x => new { x.Value, x.CiLower, x.CiUpper, x.SampleCount, x.RunId });
    }
}
