namespace PerfService.Data.Entities;

public class Branch
{
    public long Id { get; set; }
    public long ProjectId { get; set; }
    public required string Name { get; set; }

    public Project? Project { get; set; }
}
