namespace PerfService.Data.Entities;

/// <summary>Every change of an alert's state: who, when, why.</summary>
public class AlertEvent
{
    public long Id { get; set; }
    public long AlertId { get; set; }
    public AlertState? FromState { get; set; }
    public AlertState ToState { get; set; }
    public required string Actor { get; set; }
    public string? Reason { get; set; }
    public DateTimeOffset At { get; set; }
}
