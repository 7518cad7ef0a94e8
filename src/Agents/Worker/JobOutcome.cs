namespace PerfService.Agents.Worker;

public enum JobOutcomeKind
{
    Succeeded,
    Failed,

    /// <summary>The service said stop (a newer push replaced the job), or the agent is shutting down.</summary>
    Cancelled,

    /// <summary>Another agent holds the job now: abandon it without completing.</summary>
    LeaseLost,
}

public sealed record JobOutcome(JobOutcomeKind Kind, string? Error = null)
{
    public static readonly JobOutcome Succeeded = new(JobOutcomeKind.Succeeded);
    public static readonly JobOutcome LeaseLost = new(JobOutcomeKind.LeaseLost);

    public static JobOutcome Failed(string error) => new(JobOutcomeKind.Failed, error);

    public static JobOutcome Cancelled(string? reason) =>
        new(JobOutcomeKind.Cancelled, string.IsNullOrWhiteSpace(reason) ? "cancelled" : $"cancelled: {reason}");
}
