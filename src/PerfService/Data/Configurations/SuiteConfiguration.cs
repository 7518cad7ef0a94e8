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
