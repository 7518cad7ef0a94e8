using PerfService.Core.Contracts;
using PerfService.Core.Profiles;

namespace PerfService.Data.Entities;

/// <summary>
/// A CPU profile of one benchmark on one side (base or head) of a profiling job, as the agent posted it (gzip, for
/// download) and as folded stacks (gzip, what the differential flame graph reads). The table is not called
/// "profiles": that name is the hardware profiles'.
/// </summary>
public class CpuProfile
{
    public long Id { get; set; }
    public long JobId { get; set; }
    public long ProjectId { get; set; }

    /// <summary>The hardware profile of the agent that recorded it.</summary>
    public long ProfileId { get; set; }
    public long? AgentId { get; set; }
    public required string Suite { get; set; }
    public required string Benchmark { get; set; }
    public RunRole Role { get; set; }
    public int Round { get; set; }
    public ProfileFormat Format { get; set; }
    public long NativeSize { get; set; }
    public required byte[] NativeGzip { get; set; }
    public required byte[] FoldedGzip { get; set; }
    public long Samples { get; set; }
    public DateTimeOffset CreatedAt { get; set; }

    public Job? Job { get; set; }
    public HardwareProfile? Profile { get; set; }
}
