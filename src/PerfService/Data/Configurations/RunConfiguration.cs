using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Core.Contracts;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class RunConfiguration : IEntityTypeConfiguration<Run>
{
    public void Configure(EntityTypeBuilder<Run> b)
    {
        // Stored as the upload contract spells it ("head", "base"), not as the enum's member name.
        b.Property(x => x.Role).HasMaxLength(8).HasConversion(v => v.Name(), v => RunRoles.Parse(v));
        b.Property(x => x.Format).HasMaxLength(32);
        b.Property(x => x.Environment).HasColumnType("jsonb");
        b.Property(x => x.DeclaredTargets).HasColumnType("jsonb");
        b.Property(x => x.Disturbance).HasColumnType("jsonb");
        b.Property(x => x.EnvironmentFingerprint).HasMaxLength(64);
        b.Property(x => x.IdempotencyKey).HasMaxLength(200);
        b.HasOne(x => x.Project).WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne(x => x.Commit).WithMany().HasForeignKey(x => x.CommitId);
        b.HasOne(x => x.BaseCommit).WithMany().HasForeignKey(x => x.BaseCommitId);
        b.HasOne(x => x.Branch).WithMany().HasForeignKey(x => x.BranchId);
        b.HasOne(x => x.Profile).WithMany().HasForeignKey(x => x.ProfileId);
        b.HasOne(x => x.Agent).WithMany().HasForeignKey(x => x.AgentId).OnDelete(DeleteBehavior.SetNull);
        b.HasOne<Job>().WithMany().HasForeignKey(x => x.JobId).OnDelete(DeleteBehavior.SetNull);
        b.HasOne(x => x.Suite).WithMany().HasForeignKey(x => x.SuiteId);
        // A repeated post with the same key returns the first run (per project).
        b.HasIndex(x => new { x.ProjectId, x.IdempotencyKey }).IsUnique().HasFilter("idempotency_key IS NOT NULL");
        // The latest runs of a project.
        b.HasIndex(x => new { x.ProjectId, x.CreatedAt });
        b.HasIndex(x => x.JobId);
        // Sample retention's work list: runs still holding samples, oldest first (rows leave the index once
        // summarised).
        b.HasIndex(x => x.CreatedAt)
            .HasFilter("samples_summarised_at IS NULL")
            .HasDatabaseName("ix_runs_created_at_samples_kept");
        b.HasIndex(x => x.ProfileId); // the foreign key's own, which the filtered one below would otherwise replace
        // The few runs of a machine that did not match its profile: series reads subtract their points from an
        // index-only
        // count instead of probing runs for every point of the history.
        b.HasIndex(x => x.ProfileId, "ix_runs_profile_id_mismatch")
            .HasFilter("profile_mismatch")
            .HasDatabaseName("ix_runs_profile_id_mismatch");
    }
}
