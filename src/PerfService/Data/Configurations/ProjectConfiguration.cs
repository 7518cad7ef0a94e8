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
        b.Property(x => x.PullRequestPolicy).HasDefaultValue(PullRequestPolicy.Members).HasSentinel(PullRequestPolicy.Members);
        b.Property(x => x.ApprovalLabel).HasMaxLength(50).HasDefaultValue(Project.DefaultApprovalLabel);
        b.HasIndex(x => x.Slug).IsUnique();
    }
}

public class BranchConfiguration : IEntityTypeConfiguration<Branch>
{
    public void Configure(EntityTypeBuilder<Branch> b)
    {
        b.Property(x => x.Name).HasMaxLength(250);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.ProjectId, x.Name }).IsUnique();
    }
}

public class CommitConfiguration : IEntityTypeConfiguration<Commit>
{
    public void Configure(EntityTypeBuilder<Commit> b)
    {
        b.Property(x => x.Sha).HasMaxLength(64);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.ProjectId, x.Sha }).IsUnique();
    }
}
