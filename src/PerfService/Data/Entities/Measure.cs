using PerfService.Core.Results;

namespace PerfService.Data.Entities;

public class Measure
{
    public long Id { get; set; }
    public required string Name { get; set; }
    public required string Unit { get; set; }
    public Direction Direction { get; set; }
}
