namespace Persistence.Benchmarks.Providers;

/// <summary>A key/value persistence provider: what the benchmarks compare across storage back ends.</summary>
public interface IPersistenceProvider : IAsyncDisposable
{
    string Name { get; }

    /// <summary>Creates or replaces the value under <paramref name="key"/>.</summary>
    ValueTask SaveAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken = default);

    /// <summary>The value under <paramref name="key"/>, or null when there is none.</summary>
    ValueTask<byte[]?> LoadAsync(string key, CancellationToken cancellationToken = default);

    /// <summary>Removes the key; false when it was not there.</summary>
    ValueTask<bool> DeleteAsync(string key, CancellationToken cancellationToken = default);

    /// <summary>Saves many entries as one unit of work where the back end has one (a transaction, a batch).</summary>
    ValueTask SaveBatchAsync(IReadOnlyList<KeyValuePair<string, byte[]>> entries, CancellationToken cancellationToken = default);

    /// <summary>Every entry.</summary>
    ValueTask<IReadOnlyList<KeyValuePair<string, byte[]>>> GetAllAsync(CancellationToken cancellationToken = default);

    /// <summary>Removes every entry.</summary>
    ValueTask ClearAsync(CancellationToken cancellationToken = default);
}

public static class ProviderNames
{
    public const string InMemory = "InMemory";
    public const string FileSystem = "FileSystem";
    public const string PostgreSql = "PostgreSql";

    /// <summary>Environment variable holding an Npgsql connection string; without it the PostgreSQL provider is skipped.</summary>
    public const string PostgresVariable = "PERF_BENCH_PG";

    public static string? PostgresConnectionString =>
        Environment.GetEnvironmentVariable(PostgresVariable) is { Length: > 0 } cs ? cs : null;

    /// <summary>The providers this machine can run: always in-memory and file system; PostgreSQL when configured.</summary>
    public static IEnumerable<string> Available()
    {
        yield return InMemory;
        yield return FileSystem;
        if (PostgresConnectionString is not null) yield return PostgreSql;
        else if (!_skipNoted)
        {
            _skipNoted = true;
            Console.WriteLine($"// Provider=PostgreSql skipped: {PostgresVariable} is not set (an Npgsql connection string enables it)");
        }
    }

    private static bool _skipNoted;

    public static async Task<IPersistenceProvider> CreateAsync(string name) => name switch
    {
        InMemory => new InMemoryProvider(),
        FileSystem => new FileSystemProvider(Path.Combine(Path.GetTempPath(), $"perf-bench-fs-{Environment.ProcessId}-{Guid.NewGuid():N}")),
        PostgreSql => await PostgresProvider.CreateAsync(
            PostgresConnectionString ?? throw new InvalidOperationException($"{PostgresVariable} is not set"),
            $"perf_bench_kv_{Environment.ProcessId}_{Guid.NewGuid():N}"[..40]),
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, "unknown provider"),
    };
}
