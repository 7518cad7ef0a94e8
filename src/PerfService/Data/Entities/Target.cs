namespace PerfService.Data.Entities;

/// <summary>A declared performance target; <see cref="Definition"/> is a <c>TargetDeclaration</c> as JSON.</summary>
public class Target
{
    public long Id { get; set; }
    public long ProjectId { get; set; }
    public long? SuiteId { get; set; }
    public required string Name { get; set; }
    public required string Definition { get; set; }
    public DateTimeOffset CreatedAt { get; set; }
}
