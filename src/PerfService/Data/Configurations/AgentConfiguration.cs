using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class AgentConfiguration : IEntityTypeConfiguration<Agent>
{
    public void Configure(EntityTypeBuilder<Agent> b)
    {
        b.Property(x => x.Name).HasMaxLength(200);
        b.Property(x => x.Machine).HasColumnType("jsonb");
        b.HasOne(x => x.Profile).WithMany().HasForeignKey(x => x.ProfileId);
        b.HasOne(x => x.Token).WithMany().HasForeignKey(x => x.TokenId).OnDelete(DeleteBehavior.SetNull);
        b.HasIndex(x => x.Name).IsUnique();
    }
}
