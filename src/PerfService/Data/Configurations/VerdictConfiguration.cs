using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class VerdictConfiguration : IEntityTypeConfiguration<Verdict>
{
    public void Configure(EntityTypeBuilder<Verdict> b)
    {
        b.HasOne<Job>().WithMany().HasForeignKey(x => x.JobId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Benchmark>().WithMany().HasForeignKey(x => x.BenchmarkId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Measure>().WithMany().HasForeignKey(x => x.MeasureId);
        b.HasOne<HardwareProfile>().WithMany().HasForeignKey(x => x.ProfileId);
        b.HasIndex(x => new
            {
                x.JobId,
                x.BenchmarkId,
                x.MeasureId,
            })
            .IsUnique();
        b.HasIndex(x => new { x.ProjectId, x.PullRequest });
    }
}
