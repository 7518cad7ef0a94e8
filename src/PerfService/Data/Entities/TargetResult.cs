using PerfService.Core.Targets;

namespace PerfService.Data.Entities;

/// <summary>What one run showed for one target, with the figures.</summary>
public class TargetResult
{
    public long Id { get; set; }
    public long RunId { get; set; }
    public long? TargetId { get; set; }
    public required string Name { get; set; }
    public TargetStatus Outcome { get; set; }
    public double? Actual { get; set; }
    public double? Limit { get; set; }
    public string? Detail { get; set; }
}
