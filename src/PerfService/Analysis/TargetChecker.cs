using System.Globalization;
using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using PerfService.Alerts;
using PerfService.Core.Contracts;
using PerfService.Core.Suites;
using PerfService.Core.Targets;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Profiling;

namespace PerfService.Analysis;

/// <summary>
/// Records, for every target of the run's suite (and the project-wide ones), pass, fail or not measured with the
/// figures. A failing target opens one alert per target and profile, kept open while it keeps failing and closed as
/// fixed when a later run passes it. The commit that breaks a target on the default branch is profiled against the
/// one before (<see cref="ProfilingJobs.ForTargetFailureAsync"/>).
/// </summary>
public sealed class TargetChecker(PerfDbContext db, AlertService alerts, ProfilingJobs profiling)
{
    /// <summary>The runs that have targets to judge: their own declared ones, or the project's for their suite or the
    /// whole project.</summary>
    public async Task<HashSet<long>> RunsWithTargetsAsync(IReadOnlyList<Run> runs, CancellationToken ct)
    {
        var projectIds = runs.Select(r => r.ProjectId).Distinct().ToList();
        var declared = await db
            .Targets.AsNoTracking()
            .Where(t => projectIds.Contains(t.ProjectId))
            .Select(t => new { t.ProjectId, t.SuiteId })
            .Distinct()
            .ToListAsync(ct);
        return runs.Where(r =>
                r.DeclaredTargets is not null
                || declared.Any(t => t.ProjectId == r.ProjectId && (t.SuiteId == null || t.SuiteId == r.SuiteId))
            )
            .Select(r => r.Id)
            .ToHashSet();
    }

    public async Task CheckAsync(Run run, string profile, List<StoredResult> results, CancellationToken ct)
    {
        var declared = await db
            .Targets.AsNoTracking()
            .Where(t => t.ProjectId == run.ProjectId && (t.SuiteId == null || t.SuiteId == run.SuiteId))
            .ToListAsync(ct);
        var definitions = declared
            .Select(t => JsonSerializer.Deserialize<TargetDeclaration>(t.Definition, SuiteManifest.Json)!)
            .ToList();
        // A run whose perf.json was not stored as the project's (a pull request, another branch) is judged against the
        // targets it declared for its suite, in place of the stored ones; project-wide targets still apply.
        if (run.DeclaredTargets is not null && !await DeclaredProjectTargetsAsync(run, ct))
        {
            var own =
                JsonSerializer.Deserialize<List<TargetDeclaration>>(run.DeclaredTargets, SuiteManifest.Json) ?? [];
            var projectWide = declared.Select((t, i) => (t, i)).Where(x => x.t.SuiteId == null).ToList();
            definitions = [.. projectWide.Select(x => definitions[x.i]), .. own.DistinctBy(t => t.Name)];
            declared =
            [
                .. projectWide.Select(x => x.t),
                .. own.DistinctBy(t => t.Name)
                    .Select(t => new Target
                    {
                        Id = declared.FirstOrDefault(d => d.SuiteId == run.SuiteId && d.Name == t.Name)?.Id ?? 0,
                        ProjectId = run.ProjectId,
                        SuiteId = run.SuiteId,
                        Name = t.Name,
                        Definition = "",
                    }),
            ];
        }
        if (definitions.Count == 0)
            return;
        var outcomes = TargetEvaluator.Evaluate(definitions, results.Select(r => r.Result).ToList());

        await db.TargetResults.Where(t => t.RunId == run.Id).ExecuteDeleteAsync(ct);
        foreach (var o in outcomes)
        {
            var target = declared[definitions.FindIndex(d => ReferenceEquals(d, o.Target))];
            db.TargetResults.Add(
                new TargetResult
                {
                    RunId = run.Id,
                    TargetId = target.Id == 0 ? null : target.Id,
                    Name = o.Target.Name + (o.Benchmark is null ? "" : $" [{o.Benchmark}]"),
                    Outcome = o.Status switch
                    {
                        TargetStatus.Pass => TargetStatus.Pass,
                        TargetStatus.Fail => TargetStatus.Fail,
                        TargetStatus.AtRisk => TargetStatus.AtRisk,
                        _ => TargetStatus.NotMeasured,
                    },
                    Actual = o.Actual,
                    Limit = o.Limit,
                    Detail = o.Reason,
                }
            );
        }
        await db.SaveChangesAsync(ct);

        // Pull-request runs are judged on the pull request's page and check; main's alerts follow main.
        if (run.PullRequest is not null || run.Role != RunRole.Head)
            return;
        if (run.DeclaredTargets is not null && !await DeclaredProjectTargetsAsync(run, ct))
            return;
        string? commit = null;
        foreach (var group in outcomes.GroupBy(o => o.Target.Name))
        {
            var key = AlertGroupKey.Target(group.Key, profile);
            var failed = group.Where(o => o.Status == TargetStatus.Fail).ToList();
            if (failed.Count > 0)
            {
                // One alert per target and profile while it keeps failing, whichever benchmark fails it next.
                if (
                    await db
                        .Alerts.Where(a =>
                            a.ProjectId == run.ProjectId && a.Kind == AlertKind.Target && a.GroupKey == key
                        )
                        .WhereOpen()
                        .AnyAsync(ct)
                )
                    continue;
                // The alert names what broke the target: the first failing benchmark (its series) and the run's commit.
                var first = failed[0];
                var broke = results.FirstOrDefault(r =>
                    r.Result.Key == first.Benchmark
                    && string.Equals(r.Result.Measure, first.Target.Measure, StringComparison.OrdinalIgnoreCase)
                );
                commit ??= await db.Runs.Where(r => r.Id == run.Id).Select(r => r.Commit!.Sha).FirstOrDefaultAsync(ct);
                var what =
                    first.IsRelative || first.Benchmark is null ? first.Reason : $"{first.Benchmark}: {first.Reason}";
                var more = failed.Count > 1 ? $" (and {failed.Count - 1} more)" : "";
                var alert = await alerts.OpenAsync(
                    new Alert
                    {
                        ProjectId = run.ProjectId,
                        Kind = AlertKind.Target,
                        BenchmarkId = broke?.BenchmarkId,
                        MeasureId = broke?.MeasureId,
                        ProfileId = run.ProfileId,
                        RunId = run.Id,
                        GroupKey = key,
                        ToCommit = commit,
                        Summary = string.Create(
                            CultureInfo.InvariantCulture,
                            $"target '{group.Key}' failed on {profile} at {(commit is null ? "" : PerfService.Core.Contracts.CommitId.Short(commit))}: {what}{more}"
                        ),
                        Details = new AlertDetails
                        {
                            TargetMisses = failed
                                .Select(f => new TargetMiss
                                {
                                    Benchmark = f.Benchmark,
                                    Baseline = f.Baseline,
                                    Actual = f.Actual,
                                    Limit = f.Limit,
                                    Unit = f.Unit,
                                    Reason = f.Reason,
                                })
                                .ToList(),
                        },
                    },
                    "target failed",
                    ct
                );
                // Only the run that opened the alert can be where the target broke; a target that keeps failing finds
                // the alert of an earlier run open, and costs the analysis no profiling queries.
                if (alert.RunId == run.Id)
                {
                    // Why it broke: the failing benchmarks and, for a ratio, the baselines they were divided by.
                    var keys = failed.SelectMany(f => new[] { f.Benchmark, f.Baseline }).OfType<string>().ToHashSet();
                    var benchmarks = results
                        .Where(r => keys.Contains(r.Result.Key))
                        .Select(r => r.BenchmarkId)
                        .Distinct()
                        .ToList();
                    await profiling.ForTargetFailureAsync(run, alert, group.Key, benchmarks, ct);
                }
            }
            else if (group.All(o => o.Status == TargetStatus.Pass))
            {
                foreach (
                    var open in await db
                        .Alerts.Where(a => a.ProjectId == run.ProjectId && a.GroupKey == key)
                        .WhereOpen()
                        .ToListAsync(ct)
                )
                    await alerts.ChangeStateAsync(
                        open,
                        AlertState.Fixed,
                        AlertService.System,
                        $"target passes again in run {run.Id}",
                        ct
                    );
            }
        }
    }

    /// <summary>Whether the run's declaration became the project's: a head run of the default branch, not of a pull
    /// request (the rule <see cref="Ingestion.IngestService"/> stores targets by).</summary>
    private Task<bool> DeclaredProjectTargetsAsync(Run run, CancellationToken ct) =>
        run.PullRequest is null && run.Role == RunRole.Head && run.BranchId is { } branchId
            ? db.Branches.AnyAsync(b => b.Id == branchId && b.Project!.DefaultBranch == b.Name, ct)
            : Task.FromResult(false);
}
