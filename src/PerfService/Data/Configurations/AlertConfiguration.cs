using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class TargetConfiguration : IEntityTypeConfiguration<Target>
{
    public void Configure(EntityTypeBuilder<Target> b)
    {
        b.Property(x => x.Name).HasMaxLength(300);
        b.Property(x => x.Definition).HasColumnType("jsonb");
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Suite>().WithMany().HasForeignKey(x => x.SuiteId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.ProjectId, x.SuiteId, x.Name }).IsUnique();
    }
}

public class TargetResultConfiguration : IEntityTypeConfiguration<TargetResult>
{
    public void Configure(EntityTypeBuilder<TargetResult> b)
    {
        b.Property(x => x.Name).HasMaxLength(300);
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Target>().WithMany().HasForeignKey(x => x.TargetId).OnDelete(DeleteBehavior.SetNull);
        b.HasIndex(x => x.RunId);
    }
}

public class AlertConfiguration : IEntityTypeConfiguration<Alert>
{
    public void Configure(EntityTypeBuilder<Alert> b)
    {
        b.Property(x => x.GroupKey).HasMaxLength(200);
        b.Property(x => x.FromCommit).HasMaxLength(64);
        b.Property(x => x.ToCommit).HasMaxLength(64);
        b.Property(x => x.Details).HasColumnType("jsonb");
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Benchmark>().WithMany().HasForeignKey(x => x.BenchmarkId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Measure>().WithMany().HasForeignKey(x => x.MeasureId);
        b.HasOne<HardwareProfile>().WithMany().HasForeignKey(x => x.ProfileId);
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.SetNull);
        b.HasOne<AlertGroup>().WithMany().HasForeignKey(x => x.AlertGroupId).OnDelete(DeleteBehavior.SetNull);
        b.HasIndex(x => x.AlertGroupId);
        b.HasIndex(x => new { x.ProjectId, x.State, x.CreatedAt });
        b.HasIndex(x => new { x.BenchmarkId, x.MeasureId, x.ProfileId, x.State });
    }
}

public class AlertGroupConfiguration : IEntityTypeConfiguration<AlertGroup>
{
    public void Configure(EntityTypeBuilder<AlertGroup> b)
    {
        b.Property(x => x.Scope).HasMaxLength(200);
        b.Property(x => x.FromCommit).HasMaxLength(64);
        b.Property(x => x.ToCommit).HasMaxLength(64);
        b.HasOne<Project>().WithMany().HasForeignKey(x => x.ProjectId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.ProjectId, x.Scope, x.ToAt });
        b.HasIndex(x => new { x.ProjectId, x.State, x.Id });
    }
}

public class AlertEventConfiguration : IEntityTypeConfiguration<AlertEvent>
{
    public void Configure(EntityTypeBuilder<AlertEvent> b)
    {
        b.Property(x => x.Actor).HasMaxLength(200);
        b.HasOne<Alert>().WithMany().HasForeignKey(x => x.AlertId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => x.AlertId);
    }
}

public class SeriesStateConfiguration : IEntityTypeConfiguration<SeriesState>
{
    public void Configure(EntityTypeBuilder<SeriesState> b)
    {
        b.Property(x => x.State).HasColumnType("jsonb");
        b.HasOne<Benchmark>().WithMany().HasForeignKey(x => x.BenchmarkId).OnDelete(DeleteBehavior.Cascade);
        b.HasOne<Measure>().WithMany().HasForeignKey(x => x.MeasureId);
        b.HasOne<HardwareProfile>().WithMany().HasForeignKey(x => x.ProfileId);
        b.HasOne<Branch>().WithMany().HasForeignKey(x => x.BranchId).OnDelete(DeleteBehavior.Cascade);
        b.HasIndex(x => new { x.BenchmarkId, x.MeasureId, x.ProfileId, x.BranchId }).IsUnique();
    }
}
