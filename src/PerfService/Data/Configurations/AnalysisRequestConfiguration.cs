using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using PerfService.Data.Entities;

namespace PerfService.Data.Configurations;

public class AnalysisRequestConfiguration : IEntityTypeConfiguration<AnalysisRequest>
{
    public void Configure(EntityTypeBuilder<AnalysisRequest> b)
    {
        b.ToTable("analysis_queue");
        b.HasKey(x => x.RunId);
        b.Property(x => x.RunId).ValueGeneratedNever();
        b.Property(x => x.Error).HasMaxLength(AnalysisRequest.ErrorLength);
        b.Property(x => x.TraceParent).HasMaxLength(100);
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.Cascade);
    }
}
