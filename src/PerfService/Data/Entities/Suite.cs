namespace PerfService.Data.Entities;

public class Suite
{
    public long Id { get; set; }
    public long ProjectId { get; set; }
    public required string Name { get; set; }
    public string? Harness { get; set; }
}
