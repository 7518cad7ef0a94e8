using System.Buffers.Binary;

namespace PerfService.Core.ChangePoints;

/// <summary>
/// The stored form of <see cref="OnlineDetectorState"/>: a compact binary layout, written after every point of every
/// main-line series. As JSON the 200 kept values made a ~4 KB document whose round trip cost more CPU than the
/// detector update itself (benches: ComparisonBenchmarks), and PostgreSQL parsed it into jsonb and moved it out of
/// line (TOAST) on every write. Binary is ~1.7 KB, exact, and read and written with block copies.
/// Layout (big-endian, so SQL's <c>int4send</c>/<c>float8send</c> produce it, as the migration that converted the
/// JSON states does): the version of the detector that wrote it (<see cref="OnlineDetectorState.DetectorVersion"/>;
/// the JSON states were converted as version 1, the first detector's); Count, SettledBefore (int32); the number of
/// recent values (int32) and each
/// (float8); the number of tracks (int32) and each: Index (int32), Direction (byte), Hits, Misses (int32), then a byte
/// 1 followed by the alert — Index (int32), Direction (byte), Magnitude, LevelBefore, LevelAfter (float8),
/// DetectedAt, WithdrawnAt (int32, −1 for none) — or a byte 0 for no alert. An empty array is the empty state.
/// </summary>
public static class OnlineDetectorStateCodec
{
    private const int TrackSize = 4 + 1 + 4 + 4 + 1;
    private const int AlertSize = 4 + 1 + 3 * 8 + 4 + 4;

    public static byte[] Encode(OnlineDetectorState state)
    {
        var size = 1 + 4 + 4 + 4 + 8 * state.Recent.Length + 4;
        foreach (var t in state.Tracks)
            size += TrackSize + (t.Alert is null ? 0 : AlertSize);
        var bytes = new byte[size];
        var w = new Writer(bytes);
        w.Byte(state.DetectorVersion);
        w.Int(state.Count);
        w.Int(state.SettledBefore);
        w.Int(state.Recent.Length);
        foreach (var v in state.Recent)
            w.Double(v);
        w.Int(state.Tracks.Length);
        foreach (var t in state.Tracks)
        {
            w.Int(t.Index);
            w.Byte((byte)t.Direction);
            w.Int(t.Hits);
            w.Int(t.Misses);
            w.Byte(t.Alert is null ? (byte)0 : (byte)1);
            if (t.Alert is not { } a)
                continue;
            w.Int(a.Index);
            w.Byte((byte)a.Direction);
            w.Double(a.Magnitude);
            w.Double(a.LevelBefore);
            w.Double(a.LevelAfter);
            w.Int(a.DetectedAt);
            w.Int(a.WithdrawnAt ?? -1);
        }
        return bytes;
    }

    /// <exception cref="FormatException">The bytes are not a state (truncated, trailing bytes, an unknown version or
    /// direction).</exception>
    public static OnlineDetectorState Decode(ReadOnlySpan<byte> bytes)
    {
        if (bytes.IsEmpty)
            return OnlineDetectorState.Empty;
        var r = new Reader(bytes);
        var version = r.Byte();
        if (version is < 1 or > OnlineDetector.Version)
            throw new FormatException($"detector state version {version} is not one of 1 to {OnlineDetector.Version}");
        var count = r.Int();
        var settled = r.Int();
        var recent = new double[r.Length(8)];
        for (var i = 0; i < recent.Length; i++)
            recent[i] = r.Double();
        var tracks = new OnlineTrack[r.Length(TrackSize)];
        for (var i = 0; i < tracks.Length; i++)
        {
            var (index, direction, hits, misses) = (r.Int(), r.Direction(), r.Int(), r.Int());
            OnlineAlert? alert = null;
            if (r.Flag())
            {
                alert = new OnlineAlert(r.Int(), r.Direction(), r.Double(), r.Double(), r.Double(), r.Int());
                var withdrawn = r.Int();
                if (withdrawn >= 0)
                    alert = alert with { WithdrawnAt = withdrawn };
            }
            tracks[i] = new OnlineTrack(index, direction, hits, misses, alert);
        }
        r.End();
        return new OnlineDetectorState
        {
            Count = count,
            Recent = recent,
            SettledBefore = settled,
            Tracks = tracks,
            DetectorVersion = version,
        };
    }

    private ref struct Writer(Span<byte> bytes)
    {
        private readonly Span<byte> _bytes = bytes;
        private int _at;

        public void Byte(byte v) => _bytes[_at++] = v;

        public void Int(int v)
        {
            BinaryPrimitives.WriteInt32BigEndian(_bytes[_at..], v);
            _at += 4;
        }

        public void Double(double v)
        {
            BinaryPrimitives.WriteDoubleBigEndian(_bytes[_at..], v);
            _at += 8;
        }
    }

    private ref struct Reader(ReadOnlySpan<byte> bytes)
    {
        private readonly ReadOnlySpan<byte> _bytes = bytes;
        private int _at;

        public byte Byte() => Take(1)[0];

        public int Int() => BinaryPrimitives.ReadInt32BigEndian(Take(4));

        public double Double() => BinaryPrimitives.ReadDoubleBigEndian(Take(8));

        public bool Flag() =>
            Byte() switch
            {
                0 => false,
                1 => true,
                var b => throw new FormatException($"detector state: alert flag {b} at byte {_at - 1}"),
            };

        public ChangeDirection Direction()
        {
            var b = Byte();
            return Enum.IsDefined((ChangeDirection)b)
                ? (ChangeDirection)b
                : throw new FormatException($"detector state: direction {b} at byte {_at - 1}");
        }

        /// <summary>An element count, checked against the bytes left so a corrupt count cannot allocate
        /// gigabytes.</summary>
        public int Length(int minSize)
        {
            var n = Int();
            if (n < 0 || (long)n * minSize > _bytes.Length - _at)
                throw new FormatException(
                    $"detector state: {n} elements at byte {_at - 4} exceed the {_bytes.Length} bytes"
                );
            return n;
        }

        public void End()
        {
            if (_at != _bytes.Length)
                throw new FormatException($"detector state: {_bytes.Length - _at} bytes left over after byte {_at}");
        }

        private ReadOnlySpan<byte> Take(int n)
        {
            if (_at + n > _bytes.Length)
                throw new FormatException($"detector state: truncated at byte {_at} of {_bytes.Length}");
            var span = _bytes.Slice(_at, n);
            _at += n;
            return span;
        }
    }
}
