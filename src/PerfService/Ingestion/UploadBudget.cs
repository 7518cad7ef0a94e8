namespace PerfService.Ingestion;

/// <summary>
/// Counts decompressed bytes while they are inflated, per file and for the whole request, so a gzip bomb is stopped
/// after at most the budget's worth of inflating, not after it has filled memory or disk.
/// </summary>
public sealed class UploadBudget(long maxFileBytes, long maxRequestBytes)
{
    public long Used { get; private set; }

    public void Take(string path, long fileBytesSoFar, int more, bool gzipped)
    {
        if (fileBytesSoFar + more > maxFileBytes)
            throw UploadReader.TooLarge(
                $"'{path}' is larger than {maxFileBytes} bytes{(gzipped ? " once decompressed" : "")}",
                path
            );
        if (Used + more > maxRequestBytes)
            throw UploadReader.TooLarge(
                $"the files of this upload are larger than {maxRequestBytes} bytes together{(gzipped ? " once decompressed" : "")} (stopped at '{path}')",
                path
            );
        Used += more;
    }
}
