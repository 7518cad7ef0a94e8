using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class SeriesStateConfiguration : IEntityTypeConfiguration<SeriesState>
{
    public void Configure(EntityTypeBuilder<SeriesState> b)
    {
        b.Property(x => x.State).HasColumnType("bytea");
        b.Property(x => x.Checkpoint).HasColumnType("bytea");
        b.Property(x => x.PreviousCheckpoint).HasColumnType("bytea");
        b.HasOne<Benchmark>().WithMany().HasForeignKey(x => x.BenchmarkId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Measure>().WithMany().HasForeignKey(x => x.MeasureId);
        b.HasOne<HardwareProfile>().WithMany().HasForeignKey(x => x.ProfileId);
        b.HasOne<Branch>().WithMany().HasForeignKey(x => x.BranchId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new
            {
                x.BenchmarkId,
                x.MeasureId,
                x.ProfileId,
                x.BranchId,
            })
            .IsUnique();
    }
}
