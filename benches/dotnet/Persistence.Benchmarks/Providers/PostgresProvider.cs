using Npgsql;
using NpgsqlTypes;

namespace Persistence.Benchmarks.Providers;

/// <summary>
/// A table <c>(key text primary key, value bytea)</c> in PostgreSQL through Npgsql: upserts, point reads, a batch
/// of upserts in one transaction and round trip, and a full scan. The table is created for the run and dropped
/// at the end. Uses one pooled data source; each call takes a connection from the pool.
/// </summary>
public sealed class PostgresProvider : IPersistenceProvider
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly string _table;
    private readonly string _upsert, _select, _delete, _selectAll, _truncate;

    private PostgresProvider(NpgsqlDataSource dataSource, string table)
    {
        _dataSource = dataSource;
        _table = table;
        _upsert = $"INSERT INTO {table} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value";
        _select = $"SELECT value FROM {table} WHERE key = $1";
        _delete = $"DELETE FROM {table} WHERE key = $1";
        _selectAll = $"SELECT key, value FROM {table}";
        _truncate = $"TRUNCATE {table}";
    }

    public static async Task<PostgresProvider> CreateAsync(string connectionString, string table)
    {
        if (!System.Text.RegularExpressions.Regex.IsMatch(table, "^[a-z_][a-z0-9_]*$"))
            throw new ArgumentException("table name must be a plain lower-case identifier", nameof(table));
        var dataSource = NpgsqlDataSource.Create(connectionString);
        await using (var create = dataSource.CreateCommand($"CREATE TABLE IF NOT EXISTS {table} (key text PRIMARY KEY, value bytea NOT NULL)"))
            await create.ExecuteNonQueryAsync();
        return new PostgresProvider(dataSource, table);
    }

    public string Name => ProviderNames.PostgreSql;

    public async ValueTask SaveAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken = default)
    {
        await using var command = _dataSource.CreateCommand(_upsert);
        command.Parameters.Add(new NpgsqlParameter<string> { TypedValue = key });
        command.Parameters.Add(new NpgsqlParameter<ReadOnlyMemory<byte>> { TypedValue = value, NpgsqlDbType = NpgsqlDbType.Bytea });
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    public async ValueTask<byte[]?> LoadAsync(string key, CancellationToken cancellationToken = default)
    {
        await using var command = _dataSource.CreateCommand(_select);
        command.Parameters.Add(new NpgsqlParameter<string> { TypedValue = key });
        return await command.ExecuteScalarAsync(cancellationToken) as byte[];
    }

    public async ValueTask<bool> DeleteAsync(string key, CancellationToken cancellationToken = default)
    {
        await using var command = _dataSource.CreateCommand(_delete);
        command.Parameters.Add(new NpgsqlParameter<string> { TypedValue = key });
        return await command.ExecuteNonQueryAsync(cancellationToken) > 0;
    }

    public async ValueTask SaveBatchAsync(IReadOnlyList<KeyValuePair<string, byte[]>> entries, CancellationToken cancellationToken = default)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await using var batch = new NpgsqlBatch(connection, transaction);
        foreach (var (key, value) in entries)
        {
            var command = new NpgsqlBatchCommand(_upsert);
            command.Parameters.Add(new NpgsqlParameter<string> { TypedValue = key });
            command.Parameters.Add(new NpgsqlParameter<byte[]> { TypedValue = value, NpgsqlDbType = NpgsqlDbType.Bytea });
            batch.BatchCommands.Add(command);
        }
        await batch.ExecuteNonQueryAsync(cancellationToken);
        await transaction.CommitAsync(cancellationToken);
    }

    public async ValueTask<IReadOnlyList<KeyValuePair<string, byte[]>>> GetAllAsync(CancellationToken cancellationToken = default)
    {
        var all = new List<KeyValuePair<string, byte[]>>();
        await using var command = _dataSource.CreateCommand(_selectAll);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
            all.Add(new(reader.GetString(0), reader.GetFieldValue<byte[]>(1)));
        return all;
    }

    public async ValueTask ClearAsync(CancellationToken cancellationToken = default)
    {
        await using var command = _dataSource.CreateCommand(_truncate);
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            await using var drop = _dataSource.CreateCommand($"DROP TABLE IF EXISTS {_table}");
            await drop.ExecuteNonQueryAsync();
        }
        finally
        {
            await _dataSource.DisposeAsync();
        }
    }
}
