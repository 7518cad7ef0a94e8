using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class TargetConfiguration : IEntityTypeConfiguration<Target>
{
    public void Configure(EntityTypeBuilder<Target> b)
    {
        b.Property(x => x.Name).HasMaxLength(300);
        b.Property(x => x.Definition).HasColumnType("jsonb");
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Suite>().WithMany().HasForeignKey(x => x.SuiteId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new
            {
                x.ProjectId,
                x.SuiteId,
                x.Name,
            })
            .IsUnique();
    }
}
