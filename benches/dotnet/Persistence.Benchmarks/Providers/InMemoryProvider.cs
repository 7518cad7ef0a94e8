using System.Collections.Concurrent;

namespace Persistence.Benchmarks.Providers;

/// <summary>A concurrent dictionary; values are copied in and out, as a store that owns its data must.</summary>
public sealed class InMemoryProvider : IPersistenceProvider
{
    private readonly ConcurrentDictionary<string, byte[]> _entries = new(StringComparer.Ordinal);

    public string Name => ProviderNames.InMemory;

    public ValueTask SaveAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken = default)
    {
        _entries[key] = value.ToArray();
        return ValueTask.CompletedTask;
    }

    public ValueTask<byte[]?> LoadAsync(string key, CancellationToken cancellationToken = default) =>
        ValueTask.FromResult(_entries.TryGetValue(key, out var value) ? value.AsSpan().ToArray() : null);

    public ValueTask<bool> DeleteAsync(string key, CancellationToken cancellationToken = default) =>
        ValueTask.FromResult(_entries.TryRemove(key, out _));

    public ValueTask SaveBatchAsync(IReadOnlyList<KeyValuePair<string, byte[]>> entries, CancellationToken cancellationToken = default)
    {
        foreach (var (key, value) in entries) _entries[key] = value.AsSpan().ToArray();
        return ValueTask.CompletedTask;
    }

    public ValueTask<IReadOnlyList<KeyValuePair<string, byte[]>>> GetAllAsync(CancellationToken cancellationToken = default)
    {
        var all = new List<KeyValuePair<string, byte[]>>(_entries.Count);
        foreach (var (key, value) in _entries) all.Add(new(key, value.AsSpan().ToArray()));
        return ValueTask.FromResult<IReadOnlyList<KeyValuePair<string, byte[]>>>(all);
    }

    public ValueTask ClearAsync(CancellationToken cancellationToken = default)
    {
        _entries.Clear();
        return ValueTask.CompletedTask;
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
