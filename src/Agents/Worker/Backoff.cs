namespace PerfService.Agents.Worker;

/// <summary>Capped exponential backoff with "equal jitter": half the delay is fixed so it still grows, half is random
/// so that agents restarted together by an outage do not hammer the service in lockstep.</summary>
public sealed record Backoff(TimeSpan Initial, TimeSpan Cap)
{
    public static readonly Backoff Default = new(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(60));

    /// <param name="failures">Consecutive failures so far, 1 for the first.</param>
    /// <param name="random01">A number in [0, 1).</param>
    public TimeSpan Delay(int failures, double random01)
    {
        var exponent = Math.Min(Math.Max(failures, 1) - 1, 30);
        var ceiling = Math.Min(Cap.TotalMilliseconds, Initial.TotalMilliseconds * Math.Pow(2, exponent));
        return TimeSpan.FromMilliseconds(ceiling / 2 + ceiling / 2 * Math.Clamp(random01, 0, 1));
    }
}
