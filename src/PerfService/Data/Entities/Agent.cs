namespace PerfService.Data.Entities;

public class Agent
{
    public long Id { get; set; }
    public required string Name { get; set; }
    public long ProfileId { get; set; }
    public long? TokenId { get; set; }

    /// <summary>What the agent reported about its machine, as JSON.</summary>
    public string? Machine { get; set; }
    public bool ProfileMismatch { get; set; }
    public DateTimeOffset RegisteredAt { get; set; }
    public DateTimeOffset LastSeenAt { get; set; }

    // Navigations, for reads that project names (a run's commit SHA, profile name…) without correlated subqueries.
    public HardwareProfile? Profile { get; set; }
    public ApiToken? Token { get; set; }
}
