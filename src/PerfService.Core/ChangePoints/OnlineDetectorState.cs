namespace PerfService.Core.ChangePoints;

/// <summary>
/// Everything the online detector needs between points; the service persists it (plain record, JSON-serialisable)
/// and feeds the next point through <see cref="OnlineDetector.Add"/>. Bounded size: the last
/// <see cref="ChangePointOptions.History"/> values plus the change points still under watch.
/// </summary>
public sealed record OnlineDetectorState
{
    public static OnlineDetectorState Empty { get; } = new();

    /// <summary>Points seen so far; the last of <see cref="Recent"/> is point Count − 1.</summary>
    public int Count { get; init; }

    /// <summary>The most recent raw values, oldest first.</summary>
    public double[] Recent { get; init; } = [];

    /// <summary>Most recent settled (final) alerted change point: windows never reach left of it. 0 when
    /// none.</summary>
    public int SettledBefore { get; init; }

    /// <summary>Change points under watch (candidates and alerts not yet settled).</summary>
    public OnlineTrack[] Tracks { get; init; } = [];

    /// <summary>
    /// The detector that wrote the state: 1 for the first (<see cref="ChangePointOptions.Legacy"/>), else
    /// <see cref="OnlineDetector.Version"/>. A state from another detector cannot be fed on: its tracks and settled
    /// point mean something else, so the series is replayed from its start.
    /// </summary>
    public byte DetectorVersion { get; init; } = OnlineDetector.Version;

    public bool IsCurrent => DetectorVersion == OnlineDetector.Version;
}

/// <summary>A change point followed across re-runs: found in <see cref="Hits"/> consecutive re-runs, missing in the
/// last <see cref="Misses"/>.</summary>
public sealed record OnlineTrack(int Index, ChangeDirection Direction, int Hits, int Misses, OnlineAlert? Alert);

/// <summary>
/// An alert on a change point at <see cref="Index"/>, raised after point <see cref="DetectedAt"/> arrived, and
/// withdrawn after point <see cref="WithdrawnAt"/> when the change point vanished. Levels and magnitude are as
/// estimated when it was raised; compare them with a later alert (<see
/// cref="ChangePoint.Reverts(double,double,double,double,double)"/>)
/// to close it as fixed.
/// </summary>
public sealed record OnlineAlert(
    int Index,
    ChangeDirection Direction,
    double Magnitude,
    double LevelBefore,
    double LevelAfter,
    int DetectedAt
)
{
    public int? WithdrawnAt { get; init; }
}

/// <summary>The new state after one point, and what changed: alerts raised and alerts withdrawn by that
/// point.</summary>
public sealed record OnlineUpdate(
    OnlineDetectorState State,
    IReadOnlyList<OnlineAlert> Raised,
    IReadOnlyList<OnlineAlert> Withdrawn
);
