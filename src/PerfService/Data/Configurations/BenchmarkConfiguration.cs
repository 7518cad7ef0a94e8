using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class BenchmarkConfiguration : IEntityTypeConfiguration<Benchmark>
{
    public void Configure(EntityTypeBuilder<Benchmark> b)
    {
        b.Property(x => x.Parameters).HasColumnType("jsonb");
        b.HasOne(x => x.Suite).WithMany().HasForeignKey(x => x.SuiteId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.SuiteId, x.Key }).IsUnique();
    }
}
