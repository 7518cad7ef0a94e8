using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class AlertConfiguration : IEntityTypeConfiguration<Alert>
{
    public void Configure(EntityTypeBuilder<Alert> b)
    {
        b.Property(x => x.GroupKey).HasMaxLength(200);
        b.Property(x => x.FromCommit).HasMaxLength(64);
        b.Property(x => x.ToCommit).HasMaxLength(64);
        b.ComplexProperty(x => x.Details, d => d.ToJson("details"));
        b.HasOne(x => x.Project).WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne(x => x.Benchmark).WithMany().HasForeignKey(x => x.BenchmarkId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne(x => x.Measure).WithMany().HasForeignKey(x => x.MeasureId);
        b.HasOne(x => x.Profile).WithMany().HasForeignKey(x => x.ProfileId);
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.SetNull);
        b.HasOne<AlertGroup>().WithMany().HasForeignKey(x => x.AlertGroupId).OnDelete(DeleteBehavior.SetNull);
        b.HasIndex(x => x.AlertGroupId);
        b.HasIndex(x => new
        {
            x.ProjectId,
            x.State,
            x.CreatedAt,
        });
        b.HasIndex(x => new
        {
            x.BenchmarkId,
            x.MeasureId,
            x.ProfileId,
            x.State,
        });
    }
}
