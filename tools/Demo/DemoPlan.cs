using System.Globalization;

namespace PerfService.Demo;

/// <summary>
/// How the demo runs on this machine, decided from the noise the calibration measured: the history's benchtime, the
/// size of each planted step, the pull request's rounds, and whether the agents repeat disturbed rounds.
/// <see cref="Notes"/> say, in the summary, what was changed from the defaults and why.
/// </summary>
public sealed record DemoPlan(string Benchtime, int MainStepPercent, int PullRequestStepPercent, int TargetStepPercent,
    int PullRequestRounds, IReadOnlyList<string> Notes)
{
    /// <summary>The project's budget of rounds a side for re-runs of inconclusive verdicts.</summary>
    public int RoundBudget => 3 * PullRequestRounds;

    /// <summary>The plan before any measurement: what the demo plants on a quiet machine.</summary>
    public static DemoPlan Default(bool full) =>
        new(DemoPlanner.Benchtimes[0], DemoPlanner.Floor(full), DemoPlanner.Floor(full), DemoPlanner.RealStepPercent, DemoPlanner.QuietRounds, []);
}

/// <summary>
/// Pure rules from measured run-to-run noise σ (of log values) to a plan. A planted step of size s (log) is told
/// reliably when s ≥ 5σ: the change-point detector's bar is z = 5 over 10+ points a side (about 2σ), and a pull
/// request's regression must clear twice the history's σ plus its interval's half-width (about 1σ at 4 rounds a side);
/// 5σ leaves room for both. Longer benchtimes average out time-slicing by other programs (σ ∝ 1/√benchtime when the
/// disturbance is steady), up to what the demo's time allows; beyond that the planted steps grow instead.
/// </summary>
public static class DemoPlanner
{
    /// <summary>What a real change does: the demo's planted size on a machine quiet enough to tell it.</summary>
    public const int RealStepPercent = 25;
    /// <summary>--fast checks the loop, not the statistics' sensitivity: it plants 5× changes that no load hides.</summary>
    public const int FastStepPercent = 400;
    public const int MaxStepPercent = 400;
    public const double StepInNoise = 5.0;
    public const int QuietRounds = 4;
    public const int NoisyRounds = 6;
    /// <summary>
    /// Benchtimes the history may use, shortest first. The longest keeps the full demo within 20 minutes on 2 cores
    /// shared with two busy loops (84 history jobs of 25 benchmark runs each, two at a time).
    /// </summary>
    public static readonly string[] Benchtimes = ["20ms", "50ms", "100ms"];

    public static int Floor(bool full) => full ? RealStepPercent : FastStepPercent;

    /// <summary>The largest σ at which a planted step of <paramref name="percent"/> is told reliably.</summary>
    public static double NoiseLimit(int percent) => Math.Log(1 + percent / 100.0) / StepInNoise;

    /// <summary>The benchtime expected to bring σ (measured at <paramref name="current"/>) under the limit, capped; the current one when it already is.</summary>
    public static string LongerBenchtime(string current, double sigma, double limit)
    {
        if (!(sigma > limit)) return current;
        var wanted = Milliseconds(current) * (sigma / limit) * (sigma / limit);
        return Benchtimes.FirstOrDefault(b => Milliseconds(b) >= wanted) ?? Benchtimes[^1];
    }

    /// <summary>The smallest step of at least <paramref name="floor"/>% (in 5% steps, at most 400%) that σ lets the demo tell.</summary>
    public static int StepFor(double sigma, int floor)
    {
        var needed = Math.Exp(StepInNoise * Math.Max(0, sigma)) - 1;
        var percent = (int)Math.Ceiling(needed * 100 / 5.0) * 5;
        return Math.Clamp(Math.Max(floor, percent), floor, Math.Max(floor, MaxStepPercent));
    }

    /// <summary>
    /// A longer benchtime is kept unless it measured more than this many times the noise of the quietest one. Each
    /// calibration's σ is a spread of 12–18 values (about ±30%), the worst of three profiles, so two of them differ by
    /// up to twice by chance; and σ falls with benchtime when the disturbance is steady. Keeping the quieter of two
    /// chance figures planted from a figure that was low by luck: at -benchtime=20ms ±14.4% against ±19.4% at 100ms, the
    /// history ran at 20ms and its series varied by ±9–44%, with a slow mode in a third of the runs, and no planted
    /// change was found; at 100ms the histories varied by ±1.2–18% on the same machine.
    /// </summary>
    public const double ClearlyNoisier = 2.0;

    /// <summary>
    /// The plan from the calibrations, in the order they ran: each the worst profile's σ of the benchmark families that
    /// carry each planted step at one benchtime. The longest benchtime not <see cref="ClearlyNoisier"/> than the
    /// quietest is kept, and the steps are planted from its σ.
    /// </summary>
    public static DemoPlan Plan(bool full, IReadOnlyList<Calibrated> measured)
    {
        var floor = Floor(full);
        var limit = NoiseLimit(floor);
        if (measured.Count == 0) throw new ArgumentException("no calibration", nameof(measured));
        var quietest = measured.Min(m => m.Worst);
        var kept = measured.Where(m => !(m.Worst > ClearlyNoisier * quietest)).MaxBy(m => Milliseconds(m.Benchtime))!;
        var notes = new List<string>();
        var first = measured[0];
        if (measured.Count > 1)
            notes.Add($"at -benchtime={first.Benchtime} the noise was {Pct(first.Worst)}, above the {Pct(limit)} a +{floor}% step needs; " +
                      string.Join("; ", measured.Skip(1).Select(m => $"at -benchtime={m.Benchtime} {Pct(m.Worst)}")) +
                      $": the history runs at -benchtime={kept.Benchtime}");
        var main = StepFor(kept.Main, floor);
        var pr = StepFor(kept.PullRequest, floor);
        if (main > floor)
            notes.Add($"main's planted step is +{main}% instead of +{floor}%: BenchmarkRead's noise {Pct(kept.Main)} needs a step of {StepInNoise:0}σ to be found");
        if (pr > floor)
            notes.Add($"the pull request's planted step is +{pr}% instead of +{floor}%: BenchmarkProjection's noise {Pct(kept.PullRequest)} needs a step of {StepInNoise:0}σ to be judged");
        var noisy = kept.Worst > limit;
        var rounds = noisy ? NoisyRounds : QuietRounds;
        if (noisy) notes.Add($"the pull request runs {rounds} rounds a side instead of {QuietRounds}");
        // The Rivulet target is planted with the main step's margin: its suite meets the same machine.
        var target = full ? Math.Max(RealStepPercent, main) : RealStepPercent;
        if (target > RealStepPercent) notes.Add($"Rivulet's retries are made {target}% slower instead of {RealStepPercent}%");
        return new DemoPlan(kept.Benchtime, main, pr, target, rounds, notes);
    }

    /// <summary>
    /// One calibration: the worst profile's σ (log) of each planted family at one benchtime, and how many of its
    /// rounds the agents found disturbed by other programs.
    /// </summary>
    public sealed record Calibrated(string Benchtime, double Main, double PullRequest)
    {
        public double Worst => Math.Max(Main, PullRequest);
    }

    public static int Milliseconds(string benchtime) =>
        int.Parse(benchtime.AsSpan(0, benchtime.Length - 2), NumberStyles.None, CultureInfo.InvariantCulture);

    public static string Pct(double sigma) => "±" + ((Math.Exp(sigma) - 1) * 100).ToString("0.0", CultureInfo.InvariantCulture) + "%";
}
