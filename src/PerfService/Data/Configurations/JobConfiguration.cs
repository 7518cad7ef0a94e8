using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Core.Contracts;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class JobConfiguration : IEntityTypeConfiguration<Job>
{
    public void Configure(EntityTypeBuilder<Job> b)
    {
        b.Property(x => x.Commit).HasMaxLength(64);
        b.Property(x => x.BaseCommit).HasMaxLength(64);
        b.Property(x => x.Branch).HasMaxLength(250);
        b.HasOne(x => x.Project).WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne(x => x.Profile).WithMany().HasForeignKey(x => x.ProfileId);
        b.HasOne(x => x.Agent).WithMany().HasForeignKey(x => x.AgentId).OnDelete(DeleteBehavior.SetNull);
        // The claim query: queued jobs of a profile by priority then age.
        b.HasIndex(x => new
        {
            x.ProfileId,
            x.State,
            x.Priority,
            x.CreatedAt,
        });
        b.HasIndex(x => new { x.State, x.LeaseExpiresAt });
        b.HasIndex(x => new { x.ProjectId, x.PullRequest });
        b.Property(x => x.Profiling)
            .HasColumnType("jsonb")
            .HasConversion(
                v => JsonSerializer.Serialize(v, JsonSerializerOptions.Web),
                v => JsonSerializer.Deserialize<ProfilingRequest>(v, JsonSerializerOptions.Web)
            );
        b.HasOne<Agent>().WithMany().HasForeignKey(x => x.PinnedAgentId).OnDelete(DeleteBehavior.SetNull);
        b.HasOne<Alert>().WithMany().HasForeignKey(x => x.AlertId).OnDelete(DeleteBehavior.SetNull);
        b.HasIndex(x => x.AlertId);
    }
}
