using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class ProjectConfiguration : IEntityTypeConfiguration<Project>
{
    public void Configure(EntityTypeBuilder<Project> b)
    {
        b.Property(x => x.Slug).HasMaxLength(100);
        b.Property(x => x.Name).HasMaxLength(200);
        b.Property(x => x.DefaultBranch).HasMaxLength(250);
        b.Property(x => x.PullRequestPolicy)
            .HasDefaultValue(PullRequestPolicy.Members)
            .HasSentinel(PullRequestPolicy.Members);
        b.Property(x => x.ApprovalLabel).HasMaxLength(50).HasDefaultValue(Project.DefaultApprovalLabel);
        b.HasIndex(x => x.Slug).IsUnique();
    }
}
