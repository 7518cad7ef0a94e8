using System.Numerics;

namespace PerfService.Core.Bisection;

/// <summary>Where a commit inside a change point's range stands for one hardware profile.</summary>
public enum BisectCommitState
{
    /// <summary>No run and no job yet: a candidate.</summary>
    Untested,

    /// <summary>A job is queued or running: wait for it before choosing again.</summary>
    Pending,

    /// <summary>It has a run, or a job that ended without one (failed, cancelled, or the benchmark was missing): never
    /// again.</summary>
    Tried,
}

/// <summary>
/// Chooses the next commit to run while bisecting a change point's range, one job at a time: the untested commit
/// nearest the middle of the commits strictly between the range's two ends. Pure, so the service's decisions can be
/// tested without a database.
/// </summary>
public static class BisectPlan
{
    /// <summary>
    /// The most bisection jobs for a range of <paramref name="rangeCommits"/> commits (after its "from" end, up to and
    /// including its "to" end): ⌈log2(n)⌉ halvings find the culprit, plus one for a job that fails or finds nothing.
    /// </summary>
    public static int Cap(int rangeCommits) =>
        rangeCommits <= 1 ? 0 : 64 - BitOperations.LeadingZeroCount((ulong)(rangeCommits - 1)) + 1;

    /// <summary>
    /// The index into <paramref name="between"/> (the commits strictly between the range's ends, oldest first) to run
    /// next, or null: nothing left to try, a job still pending, or <paramref name="cap"/> jobs already spent.
    /// </summary>
    public static int? Next(IReadOnlyList<BisectCommitState> between, int jobsSoFar, int cap)
    {
        if (jobsSoFar >= cap || between.Contains(BisectCommitState.Pending))
            return null;
        // Testing commit m splits the range into m + 1 and n - m commits; (n - 1) / 2 balances them, with ties going
        // to the older half so that a culprit near the start is reached as fast as one near the end.
        var middle = (between.Count - 1) / 2;
        int? best = null;
        for (var i = 0; i < between.Count; i++)
            if (
                between[i] == BisectCommitState.Untested
                && (best is null || Math.Abs(i - middle) < Math.Abs(best.Value - middle))
            )
                best = i;
        return best;
    }
}
