using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using PerfService.Background;
using PerfService.Core.ChangePoints;
using PerfService.Hosting.Telemetry;

namespace PerfService.Analysis;

/// <summary>
/// The detector states this process wrote last, by series state row, each with the noise window that follows it. A
/// series' next update finds its state here when the stored bytes are still the ones written, byte for byte: it skips
/// decoding them and feeds through the kept window, which moves the noise estimate by one point instead of estimating
/// it afresh over the kept values (a single-point update without a window cost twice one through a window:
/// docs/measurements/2026-11-28-detector-speed.md). Anything else (another process wrote the state, the transaction
/// that wrote it rolled back, the entry was dropped) decodes the stored bytes as before, so the database stays the
/// only truth and a cached state decides exactly as its decoded bytes would.
/// An entry is taken out while its series is fed (the row lock already keeps updates of one series apart) and put
/// back once its new state is encoded, so no two threads ever share a window.
/// The kept bytes are copied into buffers that are used again, not kept as the arrays written: each of those would
/// live from one update of its series to the next, long enough to be copied up through the collector's generations
/// and short enough to die there, which is what a generational collector does worst (tens of MB a second under load).
/// </summary>
public sealed class SeriesStateCache(IOptions<BackgroundOptions> options)
{
    private readonly ConcurrentDictionary<long, Entry> _entries = new();
    private readonly int _capacity = options.Value.AnalysisCachedSeries;
    private readonly Lock _trimming = new();
    private readonly ConcurrentQueue<byte[]> _spare = new();
    private int _count;

    // Enough for the entries of the batches being fed at once; a buffer past it is left to the collector.
    private const int MostSpare = 4096;

    private sealed record Entry(byte[] Buffer, int Length, OnlineDetectorState State, NoiseWindow Window)
    {
        public ReadOnlySpan<byte> Stored => Buffer.AsSpan(0, Length);
    }

    /// <summary>Series held now.</summary>
    public int Count => Volatile.Read(ref _count);

    /// <summary>The state stored as <paramref name="stored"/> for row <paramref name="id"/>, and a noise window to feed
    /// it through: the kept one when it follows exactly these bytes, else a new one (null when nothing is kept).</summary>
    /// <exception cref="FormatException">The bytes are not a state.</exception>
    public (OnlineDetectorState State, NoiseWindow? Window) Take(long id, byte[] stored)
    {
        if (_entries.TryRemove(id, out var entry))
        {
            Interlocked.Decrement(ref _count);
            var same = entry.Stored.SequenceEqual(stored);
            Spare(entry.Buffer);
            if (same)
            {
                PerfTelemetry.SeriesStateTaken("memory");
                return (entry.State, entry.Window);
            }
        }
        PerfTelemetry.SeriesStateTaken(stored.Length == 0 ? "new" : "database");
        var state = stored.Length == 0 ? OnlineDetectorState.Empty : OnlineDetectorStateCodec.Decode(stored);
        return (state, _capacity > 0 ? new NoiseWindow() : null);
    }

    /// <summary>Keeps <paramref name="state"/>, written as <paramref name="stored"/>, with the window it was made
    /// through (it must be the newest state made through it). Past the capacity, an eighth of the series are
    /// dropped.</summary>
    public void Put(long id, byte[] stored, OnlineDetectorState state, NoiseWindow window)
    {
        if (_capacity == 0)
            return;
        if (!_spare.TryDequeue(out var buffer) || buffer.Length < stored.Length)
            buffer = new byte[stored.Length + stored.Length / 8]; // room for a few more tracks next time
        stored.CopyTo(buffer, 0);
        var entry = new Entry(buffer, stored.Length, state, window);
        if (_entries.TryAdd(id, entry))
        {
            if (Interlocked.Increment(ref _count) > _capacity)
                Trim();
        }
        else if (_entries.TryGetValue(id, out var replaced) && _entries.TryUpdate(id, entry, replaced))
            Spare(replaced.Buffer);
        else
            _entries[id] = entry;
    }

    private void Spare(byte[] buffer)
    {
        if (_spare.Count < MostSpare)
            _spare.Enqueue(buffer);
    }

    // Which series go does not matter for correctness (a dropped one is decoded from its bytes next time); dropping
    // them in bulk keeps the cost of finding them off most updates.
    private void Trim()
    {
        if (!_trimming.TryEnter())
            return;
        try
        {
            var keep = _capacity - _capacity / 8;
            foreach (var id in _entries.Keys)
            {
                if (Count <= keep)
                    break;
                if (_entries.TryRemove(id, out _))
                    Interlocked.Decrement(ref _count);
            }
        }
        finally
        {
            _trimming.Exit();
        }
    }
}
