namespace PerfService.Data.Entities;

/// <summary>A kind of benchmark machine. Results are only ever compared within one profile.</summary>
public class HardwareProfile
{
    public long Id { get; set; }
    public required string Name { get; set; }
    public string? CpuModel { get; set; }
    public int? PhysicalCores { get; set; }
    public int? LogicalCores { get; set; }
    public string? Arch { get; set; }
}
