using Microsoft.EntityFrameworkCore;
using PerfService.Data.Entities;

namespace PerfService.Data;

public class PerfDbContext(DbContextOptions<PerfDbContext> options) : DbContext(options)
{
    public DbSet<Project> Projects => Set<Project>();
    public DbSet<Branch> Branches => Set<Branch>();
    public DbSet<Commit> Commits => Set<Commit>();
    public DbSet<HardwareProfile> Profiles => Set<HardwareProfile>();
    public DbSet<Agent> Agents => Set<Agent>();
    public DbSet<ApiToken> Tokens => Set<ApiToken>();
    public DbSet<Suite> Suites => Set<Suite>();
    public DbSet<Benchmark> Benchmarks => Set<Benchmark>();
    public DbSet<Measure> Measures => Set<Measure>();
    public DbSet<Run> Runs => Set<Run>();
    public DbSet<Result> Results => Set<Result>();
    public DbSet<RawArtifact> Artifacts => Set<RawArtifact>();
    public DbSet<CpuProfile> CpuProfiles => Set<CpuProfile>();
    public DbSet<Job> Jobs => Set<Job>();
    public DbSet<Target> Targets => Set<Target>();
    public DbSet<TargetResult> TargetResults => Set<TargetResult>();
    public DbSet<Alert> Alerts => Set<Alert>();
    public DbSet<AlertEvent> AlertEvents => Set<AlertEvent>();
    public DbSet<AlertGroup> AlertGroups => Set<AlertGroup>();
    public DbSet<Verdict> Verdicts => Set<Verdict>();
    public DbSet<SeriesState> SeriesStates => Set<SeriesState>();
    public DbSet<AnalysisRequest> AnalysisQueue => Set<AnalysisRequest>();
    public DbSet<WebhookDelivery> WebhookDeliveries => Set<WebhookDelivery>();
    public DbSet<PullRequestComment> PullRequestComments => Set<PullRequestComment>();
    public DbSet<PullRequestHead> PullRequestHeads => Set<PullRequestHead>();
    public DbSet<PullRequestApproval> PullRequestApprovals => Set<PullRequestApproval>();
    public DbSet<ThresholdOverride> ThresholdOverrides => Set<ThresholdOverride>();

    protected override void OnModelCreating(ModelBuilder modelBuilder) =>
        modelBuilder.ApplyConfigurationsFromAssembly(typeof(PerfDbContext).Assembly);

    protected override void ConfigureConventions(ModelConfigurationBuilder configurationBuilder)
    {
        // Enums are stored as their names: readable in psql and safe when members are added.
        configurationBuilder.Properties<Enum>().HaveConversion<string>().HaveMaxLength(32);
    }
}
