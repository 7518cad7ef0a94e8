using PerfService.Core.Results;

namespace PerfService.Ingestion;

/// <summary>
/// The <c>work_mem</c> an ingest transaction sets for itself (<c>SET LOCAL</c>). The statement trigger that checks
/// results' references (migration <c>HistoryScale</c>) sees the COPY's rows as a transition table, a tuplestore holding
/// every new row, samples included; past <c>work_mem</c> (4 MB by default) PostgreSQL writes it to a temporary file and
/// reads it back once per check. A 10,000-result run with 20 samples each made 3 MB of temporary file per upload and
/// cost about a seventh of the whole ingest. Sized from the rows rather than raised for everything: work_mem also
/// bounds every sort and hash of the transaction, and uploads run a few at once (<c>Ingest:MaxConcurrentUploads</c>).
/// </summary>
public static class TransitionTableMemory
{
    // PostgreSQL's own default: a small run never asks for less than any other session gets.
    private const long FloorKilobytes = 4 * 1024;

    // A run large enough to pass this spills as before, rather than letting one upload claim a large share of memory.
    private const long CeilingKilobytes = 256 * 1024;

    // A stored row without samples or error: its fixed columns, the tuple and array headers (measured: 10,000 rows with
    // 20 samples spilled 3,060,000 bytes, 306 a row), and the tuplestore's per-row bookkeeping in memory.
    private const int RowBytes = 200;

    public static long KilobytesFor(IReadOnlyList<BenchmarkResult> results)
    {
        long bytes = 0;
        foreach (var r in results)
            bytes += RowBytes + 8L * (r.Samples?.Count ?? 0) + 2L * (r.Error?.Length ?? 0);
        // Twice the estimate: memory chunks are rounded up and the estimate must not be the thing that spills.
        return Math.Clamp(2 * bytes / 1024 + 1, FloorKilobytes, CeilingKilobytes);
    }
}
