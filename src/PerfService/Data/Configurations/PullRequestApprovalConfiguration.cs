using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class PullRequestApprovalConfiguration : IEntityTypeConfiguration<PullRequestApproval>
{
    public void Configure(EntityTypeBuilder<PullRequestApproval> b)
    {
        b.Property(x => x.HeadCommit).HasMaxLength(64);
        b.Property(x => x.ApprovedBy).HasMaxLength(250);
        b.Property(x => x.Source).HasMaxLength(16);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new
            {
                x.ProjectId,
                x.PullRequest,
                x.HeadCommit,
            })
            .IsUnique();
    }
}
