using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class PullRequestHeadConfiguration : IEntityTypeConfiguration<PullRequestHead>
{
    public void Configure(EntityTypeBuilder<PullRequestHead> b)
    {
        b.Property(x => x.HeadCommit).HasMaxLength(64);
        b.Property(x => x.HeadRepository).HasMaxLength(200);
        b.Property(x => x.Author).HasMaxLength(100);
        b.Property(x => x.AuthorAssociation).HasMaxLength(32);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.ProjectId, x.PullRequest }).IsUnique();
    }
}
