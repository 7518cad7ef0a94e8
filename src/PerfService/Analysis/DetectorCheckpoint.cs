using System.Buffers.Binary;
using PerfService.Core.ChangePoints;

namespace PerfService.Analysis;

/// <summary>
/// The detector's state as it was after the point <see cref="ResultId"/> (at <see cref="SeriesAt"/>), the
/// <see cref="Count"/>th of its series. A point that arrives out of commit order after it replays the series from
/// here instead of from its first point: agents of one profile finish their commits in any order, so late points are
/// common, and a replay from the start cost the whole history (301 points a replay on average under the 50-agent load
/// test). <see cref="State"/> is <see cref="OnlineDetectorStateCodec"/>'s form, encoded when the checkpoint is taken:
/// the states a feed makes share buffers, and only the newest stays intact.
/// </summary>
public sealed record DetectorCheckpoint(int Count, DateTimeOffset SeriesAt, long ResultId, byte[] State)
{
    /// <summary>A checkpoint is taken at every multiple of this many points, and a series keeps its last two (the
    /// <c>checkpoint</c> and <c>previous_checkpoint</c> columns): a late point up to Every points back always finds one
    /// before it, and a replay from one feeds at most about 2 × Every points plus the new ones. At fixed counts, an
    /// update in commit order knows when one is due without reading the stored ones.</summary>
    public const int Every = 24;

    public static bool IsDue(int count) => count > 0 && count % Every == 0;

    /// <summary>Written by this detector (the first byte of a state is its detector's version): one from another
    /// detector cannot be fed on.</summary>
    public bool IsCurrent => State.Length > 0 && State[0] == OnlineDetector.Version;

    public static DetectorCheckpoint Take(OnlineDetectorState state, SeriesPoint last) =>
        new(state.Count, last.SeriesAt, last.ResultId, OnlineDetectorStateCodec.Encode(state));

    private const int Header = 1 + 4 + 8 + 8;

    /// <summary>Stored form (big-endian): a format byte (1), Count (int32), SeriesAt in UTC ticks (int64), ResultId
    /// (int64), then the state's bytes. No checkpoint is an empty array.</summary>
    public static byte[] Encode(DetectorCheckpoint? c)
    {
        if (c is null)
            return [];
        var bytes = new byte[Header + c.State.Length];
        bytes[0] = 1;
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(1), c.Count);
        BinaryPrimitives.WriteInt64BigEndian(bytes.AsSpan(5), c.SeriesAt.UtcTicks);
        BinaryPrimitives.WriteInt64BigEndian(bytes.AsSpan(13), c.ResultId);
        c.State.CopyTo(bytes, Header);
        return bytes;
    }

    /// <summary>The stored checkpoint, or null for none (null or empty) and for bytes that are not one: a damaged
    /// checkpoint only costs a replay from the start, which takes new ones.</summary>
    public static DetectorCheckpoint? Decode(byte[]? bytes)
    {
        if (bytes is not { Length: > Header } || bytes[0] != 1)
            return null;
        var ticks = BinaryPrimitives.ReadInt64BigEndian(bytes.AsSpan(5));
        if (ticks < 0 || ticks > DateTimeOffset.MaxValue.UtcTicks)
            return null;
        return new DetectorCheckpoint(
            BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(1)),
            new DateTimeOffset(ticks, TimeSpan.Zero),
            BinaryPrimitives.ReadInt64BigEndian(bytes.AsSpan(13)),
            bytes[Header..]
        );
    }
}
