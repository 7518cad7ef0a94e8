namespace PerfService.Data.Entities;

/// <summary>
/// A stored run waiting for its background analysis (targets, change points). The row is added when the run is stored
/// and deleted in the transaction that analyses it; the analysis consumers claim waiting rows in batches with
/// <c>FOR UPDATE SKIP LOCKED</c>, so a consumer that dies mid-batch only releases its rows to the next one.
/// </summary>
public class AnalysisRequest
{
    /// <summary>A parked run's error is cut to this many characters: the first lines say what failed.</summary>
    public const int ErrorLength = 2000;

    public long RunId { get; set; }
    public DateTimeOffset QueuedAt { get; set; }

    /// <summary>Batches that failed while holding this run: such a run is analysed only alone, so one bad run cannot
    /// fail every batch it lands in.</summary>
    public int FailedBatches { get; set; }

    /// <summary>Analyses of this run alone that failed; at <c>Background:AnalysisAttempts</c> the run is
    /// parked.</summary>
    public int Attempts { get; set; }

    /// <summary>The last failure of this run's analysis alone (exception type and message).</summary>
    public string? Error { get; set; }

    /// <summary>Set when the run failed every attempt: no consumer takes it again, and the Service page lists
    /// it.</summary>
    public DateTimeOffset? ParkedAt { get; set; }

    /// <summary>The W3C trace context of the ingest that queued the run, so its analysis links back to it.</summary>
    public string? TraceParent { get; set; }
}
