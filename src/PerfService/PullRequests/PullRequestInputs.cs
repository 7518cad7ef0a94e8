using Microsoft.EntityFrameworkCore;
using PerfService.Analysis;
using PerfService.Core.Comparison;
using PerfService.Core.Results;
using PerfService.Data;

namespace PerfService.PullRequests;

/// <summary>One benchmark × measure to judge. <see cref="FromHistory"/> is set when the base samples came from the base
/// branch's recent runs instead of interleaved base rounds.</summary>
public sealed record PullRequestInput(
    long BenchmarkId,
    long MeasureId,
    ComparisonInput Input,
    HistoryOrigin? FromHistory
)
{
    /// <summary>The verdict's reason, saying so when the baseline was the base branch's history.</summary>
    public string Reason(Core.Comparison.Verdict verdict) =>
        FromHistory is { } h
            ? HistoryBaseline.Annotate(verdict.Reason, h.Branch, h.Runs, h.AtOrBefore)
            : verdict.Reason;
}

/// <summary>Base samples from <paramref name="Runs"/> runs of a branch, at or before a commit (null: the latest
/// runs).</summary>
public sealed record HistoryOrigin(string Branch, int Runs, string? AtOrBefore);

/// <summary>Where a pull request is judged: its project, profile, base branch and merge base.</summary>
public sealed record PullRequestScope(
    long ProjectId,
    long ProfileId,
    string Profile,
    long? BaseBranchId,
    string BaseBranch,
    string? BaseCommit,
    bool IncludeProfileMismatch = false
);

/// <summary>
/// Builds the comparisons of a pull request's head results: against the interleaved base samples when there are any,
/// otherwise against the base branch's most recent runs on the same profile at or before the merge base. Each carries
/// the project's threshold override for its key and measure, if one matches, and the base branch's noise history.
/// </summary>
public sealed class PullRequestInputs(PerfDbContext db, HistoryBaselineReader baselines)
{
    private const int NoisePoints = 30;

    public async Task<List<PullRequestInput>> BuildAsync(
        PullRequestScope scope,
        IReadOnlyList<StoredResult> head,
        IReadOnlyList<StoredResult> @base,
        CancellationToken ct
    )
    {
        var rules = new ThresholdRules(
            await db
                .ThresholdOverrides.AsNoTracking()
                .Where(t => t.ProjectId == scope.ProjectId)
                .Select(t => new ThresholdRule(t.Pattern, t.Measure, t.Threshold))
                .ToListAsync(ct)
        );
        var heads = RoundsBySeries(head).Where(h => h.Value.Rounds.Count > 0).ToList();
        var interleaved = RoundsBySeries(@base);

        var missing = heads
            .Select(h => h.Key)
            .Where(k => !interleaved.TryGetValue(k, out var b) || b.Rounds.Count == 0)
            .ToList();
        var fromHistory = new Dictionary<(long, long), HistorySamples>();
        string? atOrBefore = null;
        if (missing.Count > 0 && scope.BaseBranchId is { } branchId)
        {
            var cutoff = await baselines.CutoffAsync(scope.ProjectId, branchId, scope.BaseCommit, ct);
            atOrBefore = cutoff is null ? null : scope.BaseCommit;
            fromHistory = await baselines.ReadAsync(
                missing,
                scope.ProfileId,
                branchId,
                cutoff,
                HistoryBaselineReader.DefaultRuns,
                ct,
                scope.IncludeProfileMismatch
            );
        }

        // The base branch's recent central values, for thresholds that adapt to each series' noise: one read for all.
        var noise = scope.BaseBranchId is { } id
            ? await baselines.ReadAsync(
                heads.Select(h => h.Key).ToList(),
                scope.ProfileId,
                id,
                null,
                NoisePoints,
                ct,
                scope.IncludeProfileMismatch
            )
            : [];

        var inputs = new List<PullRequestInput>();
        foreach (var (key, (first, headRounds)) in heads)
        {
            IReadOnlyList<IReadOnlyList<double>> baseRounds;
            HistoryOrigin? origin = null;
            if (interleaved.TryGetValue(key, out var b) && b.Rounds.Count > 0)
                baseRounds = b.Rounds;
            else if (fromHistory.TryGetValue(key, out var h))
            {
                baseRounds = h.Rounds;
                origin = new HistoryOrigin(scope.BaseBranch, h.Runs, atOrBefore);
            }
            else
                continue;

            inputs.Add(
                new PullRequestInput(
                    key.BenchmarkId,
                    key.MeasureId,
                    ComparisonInput.FromRounds(
                        first.Key,
                        first.Measure,
                        first.Unit,
                        first.Direction,
                        baseRounds,
                        headRounds
                    ) with
                    {
                        Profile = scope.Profile,
                        History = noise.GetValueOrDefault(key)?.Values,
                        Threshold = rules.ThresholdFor(first.Key, first.Measure),
                    },
                    origin
                )
            );
        }
        return inputs;
    }

    /// <summary>Per benchmark × measure, one round per run of one side (runs in id order): the run's samples, or its
    /// central value when it has none. Failed results count for nothing.</summary>
    private static Dictionary<
        (long BenchmarkId, long MeasureId),
        (BenchmarkResult First, IReadOnlyList<IReadOnlyList<double>> Rounds)
    > RoundsBySeries(IEnumerable<StoredResult> results) =>
        results
            .Where(r => !r.Result.Failed)
            .GroupBy(r => (r.BenchmarkId, r.MeasureId))
            .ToDictionary(
                g => g.Key,
                g =>
                    (
                        g.First().Result,
                        (IReadOnlyList<IReadOnlyList<double>>)
                            g.GroupBy(r => r.RunId)
                                .OrderBy(r => r.Key)
                                .Select(run =>
                                    (IReadOnlyList<double>)
                                        run.SelectMany(r =>
                                                r.Result.Samples is { Count: > 0 } s ? s
                                                : r.Result.Value is { } v ? [v]
                                                : []
                                            )
                                            .ToList()
                                )
                                .Where(round => round.Count > 0)
                                .ToList()
                    )
            );
}
