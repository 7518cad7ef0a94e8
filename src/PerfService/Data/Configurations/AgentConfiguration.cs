using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class HardwareProfileConfiguration : IEntityTypeConfiguration<HardwareProfile>
{
    public void Configure(EntityTypeBuilder<HardwareProfile> b)
    {
        b.ToTable("profiles");
        b.Property(x => x.Name).HasMaxLength(100);
        b.HasIndex(x => x.Name).IsUnique();
    }
}

public class AgentConfiguration : IEntityTypeConfiguration<Agent>
{
    public void Configure(EntityTypeBuilder<Agent> b)
    {
        b.Property(x => x.Name).HasMaxLength(200);
        b.Property(x => x.Machine).HasColumnType("jsonb");
        b.HasOne<HardwareProfile>().WithMany().HasForeignKey(x => x.ProfileId);
        b.HasOne<ApiToken>().WithMany().HasForeignKey(x => x.TokenId).OnDelete(DeleteBehavior.SetNull);
        b.HasIndex(x => x.Name).IsUnique();
    }
}

public class ApiTokenConfiguration : IEntityTypeConfiguration<ApiToken>
{
    public void Configure(EntityTypeBuilder<ApiToken> b)
    {
        b.ToTable("tokens");
        b.Property(x => x.Name).HasMaxLength(200);
        b.HasIndex(x => x.Hash).IsUnique();
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
    }
}
