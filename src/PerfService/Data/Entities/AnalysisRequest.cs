namespace PerfService.Data.Entities;

/// <summary>
/// A stored run waiting for its background analysis (targets, change points). The row is added when the run is stored
/// and deleted in the transaction that analyses it, so a worker draining the queue can take several waiting runs at
/// once and the Hangfire job of a run another batch already analysed finds nothing left to do.
/// </summary>
public class AnalysisRequest
{
    public long RunId { get; set; }
    public DateTimeOffset QueuedAt { get; set; }
    /// <summary>Batches that failed while holding this run: such a run is analysed only alone, by its own job, so one
    /// bad run cannot fail every batch it lands in.</summary>
    public int FailedBatches { get; set; }
}
