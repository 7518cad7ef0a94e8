using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class ResultConfiguration : IEntityTypeConfiguration<Result>
{
    public void Configure(EntityTypeBuilder<Result> b)
    {
        b.Property(x => x.Samples).HasColumnType("double precision[]");
        // No foreign keys on results: a row-level foreign key checks each of a run's 10,000 rows one by one (measured:
        // the three of them made a run's COPY three times as slow as a bare COPY). The same rules are enforced per
        // statement instead, by triggers with transition tables (migration HistoryScale): inserted or
        // updated rows must reference an existing run, benchmark and measure, and deleting any of those deletes its
        // results, as ON DELETE CASCADE did.
        b.HasIndex(x => new
            {
                x.RunId,
                x.BenchmarkId,
                x.MeasureId,
            })
            .IsUnique();
        // A benchmark's history on one profile and branch in commit order: one range scan.
        b.HasIndex(x => new
            {
                x.BenchmarkId,
                x.MeasureId,
                x.ProfileId,
                x.BranchId,
                x.SeriesAt,
            })
            .IncludeProperties(x => new
            {
                x.Value,
                x.CiLower,
                x.CiUpper,
                x.SampleCount,
                x.RunId,
            });
    }
}
