using Microsoft.EntityFrameworkCore;
using PerfService.Data;

namespace PerfService.PullRequests;

/// <summary>
/// A PostgreSQL advisory lock per project and pull request, held while publishing: two publish jobs for one pull
/// request (a webhook and an acknowledgement at once) would otherwise both find no comment and both post one. A
/// session lock (the work under it commits in several transactions) on the context's own connection, which stays open
/// until the lock is released.
/// </summary>
public sealed class PullRequestLock : IAsyncDisposable
{
    private readonly PerfDbContext _db;
    private readonly string _key;

    private PullRequestLock(PerfDbContext db, string key)
    {
        _db = db;
        _key = key;
    }

    /// <param name="purpose">Locks of different purposes do not wait for each other ("events": handling a
    /// webhook).</param>
    public static async Task<PullRequestLock> AcquireAsync(
        PerfDbContext db,
        long projectId,
        int pullRequest,
        CancellationToken ct,
        string purpose = "pull-request"
    )
    {
        var key = $"perfservice:{purpose}:{projectId}:{pullRequest}";
        await db.Database.OpenConnectionAsync(ct);
        try
        {
            await db.Database.ExecuteSqlAsync($"SELECT pg_advisory_lock(hashtextextended({key}, 0))", ct);
            return new PullRequestLock(db, key);
        }
        catch
        {
            await db.Database.CloseConnectionAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            await _db.Database.ExecuteSqlAsync($"SELECT pg_advisory_unlock(hashtextextended({_key}, 0))");
        }
        finally
        {
            // The connection goes back to the pool, whose reset releases the lock too, should the unlock itself have
            // failed.
            await _db.Database.CloseConnectionAsync();
        }
    }
}
