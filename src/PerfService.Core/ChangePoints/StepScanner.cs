using PerfService.Core.Comparison;

namespace PerfService.Core.ChangePoints;

/// <summary>A tested step at <see cref="Index"/> (local to the scanned span): log-level before and after,
/// z-score.</summary>
internal readonly record struct Step(
    int Index,
    double Z,
    double Delta,
    double LogBefore,
    double LogAfter,
    int NBefore,
    int NAfter
)
{
    public int Start => Index - NBefore;
    public int End => Index + NAfter;
}

/// <summary>
/// Moving-window step test (in the spirit of MOSUM): at each candidate τ compare up to W points before with up to W
/// points after. Local windows keep slow drift out of the comparison (over W points it moves the level very little)
/// and make the online update cheap: adding a point only changes the statistic for the last W positions.
/// Location per window: 20%-trimmed mean of the log values (robust to outliers, ~95% efficient under normal noise).
/// Statistic: z = Δ / (σ √(K·V)), where V is the AR(1) variance of a difference of window means (see
/// <see cref="SeriesNoise.StepVariance"/>) and K ≈ 1.1 the variance cost of trimming.
/// A candidate must also survive a drift check (<see cref="DriftAdjusted"/>) and exceed a minimum effect
/// (max(MinEffect, NoiseMultiplier·σ)). Candidates are local maxima of |z| (within half a window), placed exactly by
/// an L1 split (<see cref="Localise"/>); then the weakest failing candidate is removed repeatedly, with each
/// candidate's windows cut at its neighbours, until every remaining candidate passes on its own segment.
/// </summary>
internal static class StepScanner
{
    internal const double TrimmedVarianceFactor = 1.1;
    private const double Trim = 0.2;

    // Positions with fewer points after them than MinAfter are still scored (down to this many) so that a step
    // near the end of the series is localised at its true index rather than at the last fully testable one.
    private const int MinAfterForShape = 2;

    public static Step Evaluate(
        ReadOnlySpan<double> y,
        int tau,
        int lo,
        int hi,
        SeriesNoise noise,
        ChangePointOptions o,
        Span<double> scratch,
        int minAfter = -1,
        int window = -1
    )
    {
        if (window < 0)
            window = o.Window;
        var start = Math.Max(lo, tau - window);
        var end = Math.Min(hi, tau + window);
        int nL = tau - start,
            nR = end - tau;
        if (nL < o.MinBefore || nR < (minAfter < 0 ? o.MinAfter : minAfter) || !noise.IsKnown)
            return new Step(tau, 0, 0, 0, 0, nL, nR);
        if (nR < YoungAfter)
            noise = YoungNoise(y, tau, noise);
        return Make(
            tau,
            nL,
            nR,
            TrimmedMean(y.Slice(start, nL), scratch),
            TrimmedMean(y.Slice(tau, nR), scratch),
            noise
        );
    }

    private static Step Make(
        int tau,
        int nL,
        int nR,
        double before,
        double after,
        SeriesNoise noise,
        double variance = -1
    )
    {
        var delta = after - before;
        if (variance < 0)
            variance = noise.StepVariance(nL, nR);
        var z = delta / (noise.Sigma * Math.Sqrt(TrimmedVarianceFactor * variance));
        return new Step(tau, z, delta, before, after, nL, nR);
    }

    /// <param name="onSegment">False for a first-stage candidate, whose left window is only its scale's: whether a
    /// young step has a settled old level (<see cref="YoungMinBefore"/> points) is then left to the confirmation, which
    /// sees the whole segment back to the neighbouring candidate.</param>
    public static bool Passes(
        ReadOnlySpan<double> y,
        in Step s,
        SeriesNoise noise,
        ChangePointOptions o,
        double bar,
        bool onSegment = true
    )
    {
        if (IsYoung(s))
            noise = YoungNoise(y, s.Index, noise);
        var minEffect = Math.Max(Math.Log(1 + o.MinEffect), o.NoiseMultiplier * noise.Sigma);
        if (Math.Abs(s.Z) < bar || Math.Abs(s.Delta) < minEffect || !YoungPointsBeyond(y, s, noise, o, onSegment))
            return false;
        var (trendDelta, trendZ) = DriftAdjusted(y, s, noise);
        return Math.Sign(trendDelta) == Math.Sign(s.Delta)
            && Math.Abs(trendDelta) >= minEffect
            && Math.Abs(trendZ) >= o.DriftZThreshold;
    }

    // Fewer points after a change than this and one outlier among them could carry the mean: each must then lie
    // beyond the old level on its own (the online fast path), and beyond almost all of the points before it, so that
    // a streak in a mode the series already visits (a run of half-speed runs) is not a new level.
    private const int YoungAfter = 5;
    private const double YoungOverlap = 0.02;

    // The fast path also needs a settled old level: on a short history a streak of a rare mode looks like a step.
    // Judged on the confirmation's segment only: at the 10-point scale a young step's left window never holds this
    // many, and at the longer scales a change a few dozen points earlier mixes into it and hides the young step's peak,
    // so a 36% step 31 points after another waited five points instead of three.
    private const int YoungMinBefore = 25;

    // Under YoungMinBefore points (a project's first weeks, when its first regression often lands) the fast path asks
    // more of the step instead of refusing it: four points after it, each beyond ShortBeyond noise deviations of the
    // old level, and z ≥ ShortZ. Refused, a +50% step on 3% noise 14 points in was alerted 5 points after it landed
    // instead of 3. Asked no more than on a settled level, a rare mode's streak on young bimodal series raised 9 more
    // false alerts in 2,000 of them; asked this much, 1 more (docs/measurements/2026-12-07-short-history-fast-path.md).
    private const int ShortAfter = 4;
    private const double ShortBeyond = 3.0;
    private const double ShortZ = 6.0;

    public static bool IsYoung(in Step s) => s.NAfter < YoungAfter;

    /// <summary>
    /// The noise a young step at <paramref name="tau"/> is judged by: the series' estimate without the differences that
    /// span τ, when that is lower. On a short history those few differences take the places the trimming keeps for the
    /// noise's own largest ones, so the estimate read a 70% step 44 points in as σ 30% too high and φ 0.3 too strong,
    /// and its z fell under the fast path's bar until it was no longer young (five to twelve commits late). A mature
    /// step's few spanning differences among hundreds are trimmed with no such cost, and leaving out more (the cuts of
    /// every candidate) would count a bimodal series' switches out of its noise.
    /// </summary>
    private static SeriesNoise YoungNoise(ReadOnlySpan<double> y, int tau, SeriesNoise noise)
    {
        if (tau <= 0 || tau >= y.Length)
            return noise;
        var apart = SeriesNoise.Estimate(y, [tau]);
        return apart.IsKnown && apart.Sigma < noise.Sigma ? apart : noise;
    }

    private static bool YoungPointsBeyond(
        ReadOnlySpan<double> y,
        in Step s,
        SeriesNoise noise,
        ChangePointOptions o,
        bool onSegment
    )
    {
        if (!IsYoung(s))
            return true;
        var shortHistory = onSegment && s.NBefore < YoungMinBefore;
        if (shortHistory && (s.NAfter < ShortAfter || Math.Abs(s.Z) < ShortZ))
            return false;
        var sign = Math.Sign(s.Delta);
        var weakest = double.PositiveInfinity;
        for (var t = s.Index; t < s.End; t++)
            weakest = Math.Min(weakest, sign * (y[t] - s.LogBefore));
        if (weakest < (shortHistory ? ShortBeyond : o.FastBeyond) * noise.Sigma)
            return false;
        var beyond = 0;
        for (var t = s.Start; t < s.Index; t++)
            if (sign * (y[t] - s.LogBefore) >= weakest)
                beyond++;
        return beyond <= 1 + YoungOverlap * s.NBefore;
    }

    /// <summary>
    /// The step net of a local linear trend: least squares of y on [1, t − τ, 1{t ≥ τ}] over the step's windows,
    /// after clipping residuals at ±2.5σ (outliers). Slow drift makes adjacent windows differ a little; with a slope in
    /// the model that difference is attributed to the slope and the step estimate falls to ~0, while a genuine step
    /// keeps its size (with a larger variance, hence a lower bar than the main statistic).
    /// </summary>
    internal static (double Delta, double Z) DriftAdjusted(ReadOnlySpan<double> y, in Step s, SeriesNoise noise)
    {
        var clip = 2.5 * noise.Sigma;
        double n = 0,
            su = 0,
            suu = 0,
            nr = 0,
            sur = 0,
            sy = 0,
            suy = 0,
            sry = 0;
        for (var t = s.Start; t < s.End; t++)
        {
            var u = (double)(t - s.Index);
            var after = t >= s.Index;
            var level = after ? s.LogAfter : s.LogBefore;
            var v = level - s.LogBefore + Math.Clamp(y[t] - level, -clip, clip);
            n++;
            su += u;
            suu += u * u;
            sy += v;
            suy += u * v;
            if (after)
            {
                nr++;
                sur += u;
                sry += v;
            }
        }
        // Solve the 3×3 normal equations [n su nr; su suu sur; nr sur nr]·β = [sy suy sry] for β₃ (Cramer's rule).
        var det = n * (suu * nr - sur * sur) - su * (su * nr - sur * nr) + nr * (su * sur - suu * nr);
        if (Math.Abs(det) < 1e-12)
            return (s.Delta, s.Z);
        var num = n * (suu * sry - suy * sur) - su * (su * sry - suy * nr) + sy * (su * sur - suu * nr);
        var delta = num / det;
        var cofactor = (n * suu - su * su) / det; // [(XᵀX)⁻¹]₃₃
        // Inflate for autocorrelation as for the plain step: the AR(1)/independent variance ratio of the difference.
        var arFactor = noise.StepVariance(s.NBefore, s.NAfter) / (1.0 / s.NBefore + 1.0 / s.NAfter);
        var z = delta / (noise.Sigma * Math.Sqrt(TrimmedVarianceFactor * cofactor * arFactor));
        return (delta, z);
    }

    /// <summary>
    /// Change points with index in [from, to] (local indices). Windows never reach left of <paramref name="lo"/>
    /// (a settled change point, or 0). Positions down to from − W/2 are scored so that a peak at the edge of the
    /// range is judged against its neighbours.
    /// Two stages. Candidates: peaks at each of <see cref="ChangePointOptions.Scales"/> (short windows for changes
    /// close
    /// together — a regression fixed ten commits later hides from a 30-point window whose far side mixes both levels —
    /// long ones for small changes), passing the lower <see cref="ChangePointOptions.CandidateZThreshold"/> at their
    /// own
    /// scale. Confirmation: the pruning judges every survivor against <see cref="ChangePointOptions.ZThreshold"/> on
    /// the
    /// segment between its neighbouring candidates, up to <see cref="ChangePointOptions.ConfirmWindow"/> points a side.
    /// With <paramref name="rescan"/> (offline only) a second pass follows (<see cref="RescanSegments"/>).
    /// </summary>
    public static List<Step> Scan(
        ReadOnlySpan<double> y,
        int from,
        int to,
        int lo,
        SeriesNoise noise,
        ChangePointOptions o,
        bool rescan = false
    )
    {
        var result = new List<Step>();
        var n = y.Length;
        to = Math.Min(to, n - o.MinAfter);
        if (!noise.IsKnown)
            return result;
        var widest = o.ConfirmWindow;
        for (var i = 0; i < o.Scales.Count; i++)
            widest = Math.Max(widest, o.Scales[i]);
        // On the stack, as the scan's other buffers: a scan runs after many points of a busy series, and what it
        // allocated was a tenth of what an analysis allocated.
        var scratch = widest <= 1024 ? stackalloc double[widest] : new double[widest];
        var candidates = Candidates(y, from, to, lo, noise, o, scratch);
        if (candidates.Count > 0 && o.NoiseBetweenCandidates)
        {
            // Large steps on a short history read as strong autocorrelation (their lag-3 and lag-4 differences survive
            // the trimming): estimate φ again from within the segments between candidates and, if lower, look for
            // candidates under it. Only φ: mode switches of a bimodal series are candidates too, and leaving out their
            // differences would understate σ.
            var cuts = new int[candidates.Count];
            for (var i = 0; i < cuts.Length; i++)
                cuts[i] = candidates[i].Index;
            var within = SeriesNoise.Estimate(y, cuts);
            if (within.IsKnown && noise.Phi >= StrongPhi && within.Phi < noise.Phi)
            {
                noise = new SeriesNoise(noise.Sigma * Math.Sqrt((1 - noise.Phi) / (1 - within.Phi)), within.Phi);
                candidates = Candidates(y, from, to, lo, noise, o, scratch);
            }
        }

        // Prune: re-test each candidate between its neighbours; drop the weakest failure and repeat.
        while (candidates.Count > 0)
        {
            result.Clear();
            var weakest = -1;
            for (var i = 0; i < candidates.Count; i++)
            {
                var left = i > 0 ? candidates[i - 1].Index : lo;
                var right = i < candidates.Count - 1 ? candidates[i + 1].Index : n;
                // Re-localise between the neighbours: a position found with windows that mixed in another level is
                // biased.
                var at = Localise(y, candidates[i].Index, left, right, o.Window);
                if (at != candidates[i].Index && at >= from && at <= to)
                    candidates[i] = candidates[i] with { Index = at };
                var s = OnSegment(y, candidates[i].Index, left, right, noise, o, scratch);
                result.Add(s);
                if (
                    !Passes(y, s, noise, o, o.ZThreshold)
                    && (weakest < 0 || Math.Abs(s.Z) < Math.Abs(result[weakest].Z))
                )
                    weakest = i;
            }
            if (weakest < 0)
                break;
            candidates.RemoveAt(weakest);
            if (candidates.Count == 0)
                result.Clear();
        }
        if (rescan)
            RescanSegments(y, from, to, lo, noise, o, scratch, result);
        if (o.RefineLocations)
            RefineLocations(y, result, (from, to), lo, noise, o, scratch, rescan ? RefineRadius : OnlineRefineRadius);
        return result;
    }

    // How far (in points) the least-squares split may move a confirmed change point: past the L1 split's own search
    // radius (a quarter window); the segment's ends keep it off the neighbouring change points. 10 and 15 found
    // fewer changes on the calibration seeds, 30 the same.
    internal const int RefineRadius = 20;

    // Online a change point is placed again after every point, and a move of more than a few points splits its track:
    // with 10 or 20, on a drifting series of a calibration seed, one change was alerted 6 points early and then again
    // at its place, and the second alert withdrawn.
    internal const int OnlineRefineRadius = 5;

    /// <summary>
    /// Place each confirmed change point again at the least-squares split of the segment between its neighbours (up
    /// to <see cref="ChangePointOptions.ConfirmWindow"/> points a side), within <paramref name="radius"/> points
    /// (<see cref="RefineRadius"/> offline, <see cref="OnlineRefineRadius"/> online), on values clipped at 2.5σ
    /// beyond the two levels (outliers). The L1 split of <see cref="Localise"/> judges each side by its median over
    /// <see cref="ChangePointOptions.Window"/> points: when the step is about one noise deviation, that places strong
    /// changes (z 6–14 on their segments) 4–8 points off. A moved change point is kept only when it still passes the
    /// confirmation's bar.
    /// </summary>
    private static void RefineLocations(
        ReadOnlySpan<double> y,
        List<Step> result,
        (int From, int To) range,
        int lo,
        SeriesNoise noise,
        ChangePointOptions o,
        Span<double> scratch,
        int radius
    )
    {
        var (from, to) = range;
        var n = y.Length;
        for (var i = 0; i < result.Count; i++)
        {
            var s = result[i];
            var left = i > 0 ? result[i - 1].Index : lo;
            var right = i < result.Count - 1 ? result[i + 1].Index : n;
            var start = Math.Max(left, s.Index - o.ConfirmWindow);
            var end = Math.Min(right, s.Index + o.ConfirmWindow);
            var split = LeastSquaresSplit(
                y[start..end],
                Math.Max(Math.Max(from, left + o.MinBefore), s.Index - radius) - start,
                Math.Min(Math.Min(to, right - o.MinAfter), s.Index + radius) - start,
                Math.Min(s.LogBefore, s.LogAfter) - 2.5 * noise.Sigma,
                Math.Max(s.LogBefore, s.LogAfter) + 2.5 * noise.Sigma
            );
            var at = split + start;
            if (split < 0 || at == s.Index)
                continue;
            if (Passing(y, OnSegment(y, at, left, right, noise, o, scratch), noise, o) is { } moved)
                result[i] = moved;
        }
    }

    /// <summary>The split t in [first, last] of <paramref name="y"/> (clipped to [low, high]) that minimises the sum
    /// of squared deviations from each side's mean; −1 when the range is empty.</summary>
    internal static int LeastSquaresSplit(ReadOnlySpan<double> y, int first, int last, double low, double high)
    {
        double total = 0;
        foreach (var v in y)
            total += Math.Clamp(v, low, high);
        double prefix = 0;
        var best = -1;
        var bestGain = double.NegativeInfinity;
        for (var t = 0; t <= last && t < y.Length; t++)
        {
            // The sum of squares about two means falls by the between-sides term: maximise it.
            if (t >= first && t > 0)
            {
                var gain = prefix * prefix / t + (total - prefix) * (total - prefix) / (y.Length - t);
                if (gain > bestGain + 1e-12)
                {
                    bestGain = gain;
                    best = t;
                }
            }
            prefix += Math.Clamp(y[t], low, high);
        }
        return best;
    }

    // A split found on a whole segment must also show as a step on this many points a side, at the candidate bar:
    // slow drift over 240 points fits "step plus line" well enough to pass the long windows' drift check, but over 60
    // points a side it is not a step.
    private const int RescanLocalWindow = 60;

    /// <summary>
    /// Second pass, in the manner of binary segmentation: the first stage's peaks can miss a change that a neighbour's
    /// windows mixed into their own, or whose peak fell under the candidate bar at every scale while its whole segment
    /// would carry it. Each segment between confirmed change points is searched for its best split (windows up to
    /// <see cref="ChangePointOptions.ConfirmWindow"/> a side, inside the segment), which is kept when it passes the
    /// confirmation's bar, also shows at <see cref="RescanLocalWindow"/> points a side at the candidate bar, and leaves
    /// its neighbours passing on their shortened segments; repeated until nothing is added. Offline only: online, the
    /// same pass raised more false alerts than it found changes on the calibration seeds.
    /// </summary>
    private static void RescanSegments(
        ReadOnlySpan<double> y,
        int from,
        int to,
        int lo,
        SeriesNoise noise,
        ChangePointOptions o,
        Span<double> scratch,
        List<Step> result
    )
    {
        var n = y.Length;
        var tried = new HashSet<(int, int)>();
        for (var added = true; added; )
        {
            added = false;
            for (var i = 0; i <= result.Count && !added; i++)
            {
                var left = i > 0 ? result[i - 1].Index : lo;
                var right = i < result.Count ? result[i].Index : n;
                if (!tried.Add((left, right)))
                    continue;
                var best = new Step(-1, 0, 0, 0, 0, 0, 0);
                for (var t = Math.Max(from, left + o.MinBefore); t <= Math.Min(to, right - o.MinAfter); t++)
                {
                    var s = Evaluate(y, t, left, right, noise, o, scratch, -1, o.ConfirmWindow);
                    if (Math.Abs(s.Z) > Math.Abs(best.Z))
                        best = s;
                }
                if (best.Index < 0 || Math.Abs(best.Z) < o.CandidateZThreshold)
                    continue;
                var at = Localise(y, best.Index, left, right, o.Window);
                if (at < from || at > to || at - left < o.MinBefore || right - at < o.MinAfter)
                    at = best.Index;
                if (
                    Passing(y, OnSegment(y, at, left, right, noise, o, scratch), noise, o) is not { } split
                    || !Passes(
                        y,
                        Evaluate(y, at, left, right, noise, o, scratch, -1, RescanLocalWindow),
                        noise,
                        o,
                        o.CandidateZThreshold
                    )
                )
                    continue;
                // The neighbours lose the far side of their windows to the new split: each must still pass.
                var before =
                    i > 0
                        ? Passing(
                            y,
                            OnSegment(y, left, i > 1 ? result[i - 2].Index : lo, at, noise, o, scratch),
                            noise,
                            o
                        )
                        : null;
                var after =
                    i < result.Count
                        ? Passing(
                            y,
                            OnSegment(y, right, at, i < result.Count - 1 ? result[i + 1].Index : n, noise, o, scratch),
                            noise,
                            o
                        )
                        : null;
                if ((i > 0 && before is null) || (i < result.Count && after is null))
                    continue;
                if (before is { } b)
                    result[i - 1] = b;
                if (after is { } a)
                    result[i] = a;
                result.Insert(i, split);
                added = true;
            }
        }
    }

    /// <summary>The step at <paramref name="tau"/> as the confirmation judges it on the segment [lo, hi).</summary>
    private static Step OnSegment(
        ReadOnlySpan<double> y,
        int tau,
        int lo,
        int hi,
        SeriesNoise noise,
        ChangePointOptions o,
        Span<double> scratch
    ) => Confirmed(y, Evaluate(y, tau, lo, hi, noise, o, scratch, -1, o.ConfirmWindow), noise, o);

    private static Step? Passing(ReadOnlySpan<double> y, in Step s, SeriesNoise noise, ChangePointOptions o) =>
        Passes(y, s, noise, o, o.ZThreshold) ? s : null;

    // With fewer points a side the rank z could hardly reach the bar (10 and 10: at most 3.8).
    private const int RankMinPoints = 10;

    /// <summary>
    /// A candidate's step <paramref name="s"/> on the segment between its neighbours (up to
    /// <see cref="ChangePointOptions.ConfirmWindow"/> points a side) as the confirmation judges it. With
    /// <see cref="ChangePointOptions.RankConfirmation"/> its z is the larger of the trimmed-mean z and the
    /// <see cref="MannWhitney"/> z of the same sign, the latter deflated for AR(1) noise by the trimmed means' variance
    /// ratio (conservative: ranks of AR(1) noise are less autocorrelated than the noise itself).
    /// </summary>
    private static Step Confirmed(ReadOnlySpan<double> y, Step s, SeriesNoise noise, ChangePointOptions o)
    {
        if (!o.RankConfirmation || s.NBefore < RankMinPoints || s.NAfter < RankMinPoints)
            return s;
        var z = MannWhitney.Z(y.Slice(s.Start, s.NBefore), y.Slice(s.Index, s.NAfter));
        z /= Math.Sqrt(noise.StepVariance(s.NBefore, s.NAfter) / (1.0 / s.NBefore + 1.0 / s.NAfter));
        return Math.Sign(z) == Math.Sign(s.Z) && Math.Abs(z) > Math.Abs(s.Z) ? s with { Z = z } : s;
    }

    // Below this φ the steps' lag differences were trimmed away; re-estimating would only drop a bimodal series'
    // switches.
    private const double StrongPhi = 0.5;

    // Peaks at every scale, in order; the same change found at several scales keeps the stronger.
    private static List<Step> Candidates(
        ReadOnlySpan<double> y,
        int from,
        int to,
        int lo,
        SeriesNoise noise,
        ChangePointOptions o,
        Span<double> scratch
    )
    {
        var candidates = new List<Step>();
        for (var i = 0; i < o.Scales.Count; i++)
            AddPeaks(y, from, to, lo, noise, o, Math.Max(o.MinBefore, o.Scales[i]), scratch, candidates);
        candidates.Sort((a, b) => a.Index.CompareTo(b.Index));
        for (var i = candidates.Count - 1; i > 0; i--)
            if (candidates[i].Index - candidates[i - 1].Index <= o.Jitter)
                candidates.RemoveAt(Math.Abs(candidates[i].Z) > Math.Abs(candidates[i - 1].Z) ? i - 1 : i);
        return candidates;
    }

    // Local maxima of |z| at one window size (within half a window), localised, and passing at that size.
    private static void AddPeaks(
        ReadOnlySpan<double> y,
        int from,
        int to,
        int lo,
        SeriesNoise noise,
        ChangePointOptions o,
        int window,
        Span<double> scratch,
        List<Step> candidates
    )
    {
        var n = y.Length;
        var half = Math.Max(1, window / 2);
        var first = Math.Max(lo + o.MinBefore, from - half);
        var last = Math.Min(n - Math.Min(MinAfterForShape, o.MinAfter), to + half);
        if (last < first || to < from)
            return;
        var z = last - first + 1 <= 1024 ? stackalloc double[last - first + 1] : new double[last - first + 1];
        // Slide both windows along instead of sorting them afresh at every position.
        var left = SortedWindow.Kept(ref t_left, window);
        var right = SortedWindow.Kept(ref t_right, window);
        int ls = Math.Max(lo, first - window),
            le = first,
            rs = first,
            re = Math.Min(n, first + window);
        // The first position's windows are filled at once: a sort instead of a search and a move per value.
        left.Fill(y[ls..le]);
        right.Fill(y[rs..re]);
        int cachedL = -1,
            cachedR = -1;
        var variance = 0.0; // most positions have full windows on both sides: one variance serves them all
        for (var t = first; t <= last; t++)
        {
            int newLs = Math.Max(lo, t - window),
                newRe = Math.Min(n, t + window);
            // A full window slides by one: one value leaves as one enters.
            for (; ls < newLs && le < t; ls++, le++)
                left.Replace(y[ls], y[le]);
            while (ls < newLs)
                left.Remove(y[ls++]);
            while (le < t)
                left.Add(y[le++]);
            for (; rs < t && re < newRe; rs++, re++)
                right.Replace(y[rs], y[re]);
            while (rs < t)
                right.Remove(y[rs++]);
            while (re < newRe)
                right.Add(y[re++]);
            if (left.Count < o.MinBefore || right.Count < MinAfterForShape)
                continue;
            if (left.Count != cachedL || right.Count != cachedR)
                (cachedL, cachedR, variance) = (left.Count, right.Count, noise.StepVariance(left.Count, right.Count));
            z[t - first] = Math.Abs(
                Make(t, left.Count, right.Count, left.TrimmedMean(Trim), right.TrimmedMean(Trim), noise, variance).Z
            );
        }
        for (var t = first; t <= last; t++)
        {
            var zt = z[t - first];
            if (zt < o.CandidateZThreshold)
                continue;
            var peak = true;
            for (var u = Math.Max(first, t - half); u <= Math.Min(last, t + half) && peak; u++)
                if (u < t ? z[u - first] >= zt : u > t && z[u - first] > zt)
                    peak = false;
            if (!peak)
                continue;
            var at = Localise(y, t, lo, n, window);
            if (at < from || at > to)
                continue;
            var s = Evaluate(y, at, lo, n, noise, o, scratch, -1, window);
            if (Passes(y, s, noise, o, o.CandidateZThreshold, onSegment: false))
                candidates.Add(s);
        }
    }

    // The sliding windows of AddPeaks, one pair per thread (scans of many series run in parallel, each on one thread,
    // and AddPeaks never runs inside itself).
    [ThreadStatic]
    private static SortedWindow? t_left,
        t_right;

    /// <summary>
    /// Exact position near a peak of |z|: the split of the surrounding window that minimises the absolute deviations
    /// from each side's median. The z profile itself is a poor locator near the end of the series (trimming hides one
    /// misassigned point, and more points after τ always look better), while every misassigned point costs the L1 split
    /// about the full step.
    /// </summary>
    private static int Localise(ReadOnlySpan<double> y, int peak, int lo, int hi, int window)
    {
        var start = Math.Max(lo, peak - window);
        var end = Math.Min(hi, peak + window);
        var buffer = end - start <= 1024 ? stackalloc double[end - start] : new double[end - start];
        var best = peak;
        var bestCost = double.PositiveInfinity;
        for (var d = 0; d <= Math.Max(1, window / 4); d++)
        for (var sign = -1; sign <= 1; sign += 2)
        {
            if (d == 0 && sign > 0)
                continue;
            var t = peak + sign * d;
            if (t - start < MinAfterForShape || end - t < MinAfterForShape)
                continue;
            var cost = L1(y.Slice(start, t - start), buffer) + L1(y.Slice(t, end - t), buffer);
            if (cost < bestCost - 1e-12)
            {
                bestCost = cost;
                best = t;
            }
        }
        return best;
    }

    private static double L1(ReadOnlySpan<double> values, Span<double> scratch)
    {
        var s = scratch[..values.Length];
        values.CopyTo(s);
        StatMath.Select(s, s.Length / 2); // the same value a sort puts there, in linear time
        var median = s[s.Length / 2];
        double sum = 0;
        foreach (var v in values)
            sum += Math.Abs(v - median);
        return sum;
    }

    private static double TrimmedMean(ReadOnlySpan<double> values, Span<double> scratch)
    {
        var s = scratch[..values.Length];
        values.CopyTo(s);
        s.Sort();
        var g = (int)(Trim * s.Length);
        double sum = 0;
        for (var i = g; i < s.Length - g; i++)
            sum += s[i];
        return sum / (s.Length - 2 * g);
    }

    /// <summary>Log transform; performance series are positive, non-positive values are clamped to a tiny
    /// level.</summary>
    public static double Log(double v) => Math.Log(v > 1e-12 ? v : 1e-12);
}
