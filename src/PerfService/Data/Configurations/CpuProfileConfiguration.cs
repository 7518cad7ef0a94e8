using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Core.Contracts;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class CpuProfileConfiguration : IEntityTypeConfiguration<CpuProfile>
{
    public void Configure(EntityTypeBuilder<CpuProfile> b)
    {
        b.ToTable("cpu_profiles");
        b.Property(x => x.Suite).HasMaxLength(200);
        b.Property(x => x.Benchmark).HasMaxLength(1000);
        b.Property(x => x.Role).HasMaxLength(8).HasConversion(v => v.Name(), v => RunRoles.Parse(v));
        b.HasOne(x => x.Job).WithMany().HasForeignKey(x => x.JobId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne(x => x.Profile).WithMany().HasForeignKey(x => x.ProfileId);
        b.HasOne<Agent>().WithMany().HasForeignKey(x => x.AgentId).OnDelete(DeleteBehavior.SetNull);
        // One profile per slot of a job (benchmark, suite, side, round): an agent's retried upload, or a re-run
        // attempt's, finds the first instead of storing a second. Its prefix serves the reads by job and benchmark.
        b.HasIndex(x => new
            {
                x.JobId,
                x.Benchmark,
                x.Suite,
                x.Role,
                x.Round,
            })
            .IsUnique();
        // Retention deletes by age, like raw artifacts.
        b.HasIndex(x => x.CreatedAt);
    }
}
