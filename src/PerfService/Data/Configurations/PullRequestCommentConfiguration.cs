using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class PullRequestCommentConfiguration : IEntityTypeConfiguration<PullRequestComment>
{
    public void Configure(EntityTypeBuilder<PullRequestComment> b)
    {
        b.Property(x => x.BodyHash).HasMaxLength(64);
        b.Property(x => x.HeadCommit).HasMaxLength(64);
        b.Property(x => x.LastState).HasMaxLength(16);
        b.Property(x => x.CheckRunHead).HasMaxLength(64);
        b.Property(x => x.CheckRunState).HasMaxLength(32);
        b.Property(x => x.Notes).HasMaxLength(8000);
        b.HasIndex(x => x.CheckRunId);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.ProjectId, x.PullRequest }).IsUnique();
    }
}
