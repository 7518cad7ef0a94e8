using Npgsql;

namespace PerfService.PullRequests;

/// <summary>
/// A PostgreSQL advisory lock per project and pull request, held while publishing: two publish jobs for one pull
/// request (a webhook and an acknowledgement at once) would otherwise both find no comment and both post one.
/// </summary>
public sealed class PullRequestLock : IAsyncDisposable
{
    private readonly NpgsqlConnection _connection;
    private readonly string _key;

    private PullRequestLock(NpgsqlConnection connection, string key)
    {
        _connection = connection;
        _key = key;
    }

    /// <param name="purpose">Locks of different purposes do not wait for each other ("events": handling a webhook).</param>
    public static async Task<PullRequestLock> AcquireAsync(NpgsqlDataSource dataSource, long projectId, int pullRequest, CancellationToken ct,
        string purpose = "pull-request")
    {
        var key = $"perfservice:{purpose}:{projectId}:{pullRequest}";
        var connection = await dataSource.OpenConnectionAsync(ct);
        try
        {
            await using var command = new NpgsqlCommand("SELECT pg_advisory_lock(hashtextextended($1, 0))", connection);
            command.Parameters.Add(new NpgsqlParameter { Value = key });
            await command.ExecuteNonQueryAsync(ct);
            return new PullRequestLock(connection, key);
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            await using var command = new NpgsqlCommand("SELECT pg_advisory_unlock(hashtextextended($1, 0))", _connection);
            command.Parameters.Add(new NpgsqlParameter { Value = _key });
            await command.ExecuteNonQueryAsync();
        }
        finally
        {
            // Closing the session releases the lock too, should the unlock itself have failed.
            await _connection.DisposeAsync();
        }
    }
}
