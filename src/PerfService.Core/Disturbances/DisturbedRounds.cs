using System.Globalization;
using PerfService.Core.Contracts;

namespace PerfService.Core.Disturbances;

/// <summary>One round (run) of a comparison, with what its agent measured around it (null: nothing measured).</summary>
public sealed record RoundRun(long RunId, RunRole Role, Disturbance? Disturbance)
{
    public bool Disturbed => Disturbance?.Disturbed == true;
}

/// <summary>Which disturbed rounds a verdict leaves out, and how many were disturbed.</summary>
public sealed record DisturbedChoice(IReadOnlySet<long> LeftOut, int Disturbed, int Rounds, string? Why)
{
    public static DisturbedChoice None { get; } = new(new HashSet<long>(), 0, 0, null);

    /// <summary>What a report says: "1 round left out as disturbed (other processes used 85% of a core)", or why the
    /// disturbed rounds were kept; null when no round was disturbed.</summary>
    public string? Say()
    {
        if (Disturbed == 0)
            return null;
        var rounds = Disturbed == 1 ? "1 round" : $"{Disturbed} rounds";
        var why = Why is null ? "" : $" ({Why})";
        return LeftOut.Count > 0
            ? $"{rounds} left out as disturbed{why}"
            : string.Create(
                CultureInfo.InvariantCulture,
                $"{Disturbed} of {Rounds} rounds disturbed{why} and kept: fewer than {DisturbedRounds.MinUndisturbed} undisturbed rounds a side would remain"
            );
    }
}

/// <summary>
/// Verdicts leave out disturbed rounds when each side keeps at least <see cref="MinUndisturbed"/> undisturbed ones:
/// two rounds a side are the fewest whose scatter still measures run-to-run noise (with one, the verdict leans on the
/// base branch's history alone). Both sides or neither: leaving out only one side's disturbed rounds would compare a
/// quiet side with a disturbed one, the very bias this avoids. Otherwise every round is used and the report says so.
/// </summary>
public static class DisturbedRounds
{
    public const int MinUndisturbed = 2;

    public static DisturbedChoice Choose(IReadOnlyList<RoundRun> runs)
    {
        var disturbed = runs.Where(r => r.Disturbed).ToList();
        if (disturbed.Count == 0)
            return DisturbedChoice.None;
        var enough = runs.GroupBy(r => r.Role).All(side => side.Count(r => !r.Disturbed) >= MinUndisturbed);
        var worst = disturbed
            .MaxBy(r => r.Disturbance!.OtherCpuShare * r.Disturbance.SuiteCores + r.Disturbance.StealShare)!
            .Disturbance!;
        return new DisturbedChoice(
            enough ? disturbed.Select(r => r.RunId).ToHashSet() : new HashSet<long>(),
            disturbed.Count,
            runs.Count,
            DisturbanceRule.Describe(worst)
        );
    }

    /// <summary>
    /// Whether a disturbed run of a branch stays out of its change-point series and baselines: when disturbance is the
    /// exception on its profile (fewer than half of its recent measured runs were disturbed), it is an outlier to skip.
    /// When it is the machine's usual state, the runs are alike and leaving them out would leave no series at all.
    /// </summary>
    public static bool LeaveOutOfSeries(bool disturbed, int recentDisturbed, int recentMeasured) =>
        disturbed && recentDisturbed * 2 < recentMeasured;
}
