namespace PerfService.Core.ChangePoints;

public enum ChangeDirection
{
    Regression,
    Improvement,
}

/// <summary>
/// A change point: <see cref="Index"/> is the first point of the new level. Levels are robust local levels (trimmed
/// geometric means of up to a window of points on each side), in the series' units. <see cref="Magnitude"/> is the
/// relative change, LevelAfter / LevelBefore − 1. <see cref="Score"/> is the step statistic (z under the noise model).
/// </summary>
public sealed record ChangePoint(
    int Index,
    ChangeDirection Direction,
    double Magnitude,
    double LevelBefore,
    double LevelAfter,
    double Score
)
{
    /// <summary>
    /// True when this (later) change undoes <paramref name="earlier"/>: opposite direction and the level returns to
    /// within <paramref name="tolerance"/> (a fraction of the earlier step, in log terms) of the level before it.
    /// The caller uses it to close the earlier alert as fixed.
    /// </summary>
    public bool Reverts(ChangePoint earlier, double tolerance = 0.5) =>
        Reverts(earlier.LevelBefore, earlier.LevelAfter, LevelBefore, LevelAfter, tolerance);

    public static bool Reverts(
        double earlierBefore,
        double earlierAfter,
        double laterBefore,
        double laterAfter,
        double tolerance = 0.5
    )
    {
        if (!(earlierBefore > 0 && earlierAfter > 0 && laterBefore > 0 && laterAfter > 0))
            return false;
        var step = Math.Log(earlierAfter / earlierBefore);
        var back = Math.Log(laterAfter / laterBefore);
        if (step == 0 || Math.Sign(step) == Math.Sign(back))
            return false;
        return Math.Abs(Math.Log(laterAfter / earlierBefore)) <= tolerance * Math.Abs(step);
    }
}
