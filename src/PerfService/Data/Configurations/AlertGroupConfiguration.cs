using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class AlertGroupConfiguration : IEntityTypeConfiguration<AlertGroup>
{
    public void Configure(EntityTypeBuilder<AlertGroup> b)
    {
        b.Property(x => x.Scope).HasMaxLength(200);
        b.Property(x => x.FromCommit).HasMaxLength(64);
        b.Property(x => x.ToCommit).HasMaxLength(64);
        b.HasOne(x => x.Project).WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new
        {
            x.ProjectId,
            x.Scope,
            x.ToAt,
        });
        b.HasIndex(x => new
        {
            x.ProjectId,
            x.State,
            x.Id,
        });
    }
}
