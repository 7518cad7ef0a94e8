using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class WebhookDeliveryConfiguration : IEntityTypeConfiguration<WebhookDelivery>
{
    public void Configure(EntityTypeBuilder<WebhookDelivery> b)
    {
        b.Property(x => x.DeliveryId).HasMaxLength(100);
        b.Property(x => x.Event).HasMaxLength(64);
        b.Property(x => x.BodySha256).HasMaxLength(64);
        b.HasIndex(x => x.DeliveryId).IsUnique();
        // The same signed body under a new delivery id is a replay.
        b.HasIndex(x => x.BodySha256).IsUnique();
    }
}

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

public class PullRequestApprovalConfiguration : IEntityTypeConfiguration<PullRequestApproval>
{
    public void Configure(EntityTypeBuilder<PullRequestApproval> b)
    {
        b.Property(x => x.HeadCommit).HasMaxLength(64);
        b.Property(x => x.ApprovedBy).HasMaxLength(250);
        b.Property(x => x.Source).HasMaxLength(16);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.ProjectId, x.PullRequest, x.HeadCommit }).IsUnique();
    }
}

public class PullRequestCommentConfiguration : IEntityTypeConfiguration<PullRequestComment>
{
    public void Configure(EntityTypeBuilder<PullRequestComment> b)
    {
        b.Property(x => x.BodyHash).HasMaxLength(64);
        b.Property(x => x.HeadCommit).HasMaxLength(64);
        b.Property(x => x.LastState).HasMaxLength(16);
        b.Property(x => x.CheckRunHead).HasMaxLength(64);
        b.Property(x => x.Notes).HasMaxLength(8000);
        b.HasIndex(x => x.CheckRunId);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.ProjectId, x.PullRequest }).IsUnique();
    }
}

public class VerdictConfiguration : IEntityTypeConfiguration<Verdict>
{
    public void Configure(EntityTypeBuilder<Verdict> b)
    {
        b.HasOne<Job>().WithMany().HasForeignKey(x => x.JobId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Benchmark>().WithMany().HasForeignKey(x => x.BenchmarkId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Measure>().WithMany().HasForeignKey(x => x.MeasureId);
        b.HasOne<HardwareProfile>().WithMany().HasForeignKey(x => x.ProfileId);
        b.HasIndex(x => new { x.JobId, x.BenchmarkId, x.MeasureId }).IsUnique();
        b.HasIndex(x => new { x.ProjectId, x.PullRequest });
    }
}
