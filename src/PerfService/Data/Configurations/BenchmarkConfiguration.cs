using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class SuiteConfiguration : IEntityTypeConfiguration<Suite>
{
    public void Configure(EntityTypeBuilder<Suite> b)
    {
        b.Property(x => x.Name).HasMaxLength(200);
        b.Property(x => x.Harness).HasMaxLength(32);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.ProjectId, x.Name }).IsUnique();
    }
}

public class BenchmarkConfiguration : IEntityTypeConfiguration<Benchmark>
{
    public void Configure(EntityTypeBuilder<Benchmark> b)
    {
        b.Property(x => x.Parameters).HasColumnType("jsonb");
        b.HasOne<Suite>().WithMany().HasForeignKey(x => x.SuiteId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.SuiteId, x.Key }).IsUnique();
    }
}

public class MeasureConfiguration : IEntityTypeConfiguration<Measure>
{
    public void Configure(EntityTypeBuilder<Measure> b)
    {
        b.Property(x => x.Name).HasMaxLength(200);
        b.Property(x => x.Unit).HasMaxLength(64);
        b.HasIndex(x => new { x.Name, x.Unit }).IsUnique();
    }
}
