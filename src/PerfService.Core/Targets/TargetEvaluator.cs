using System.Globalization;
using PerfService.Core.Results;
using PerfService.Core.Suites;

namespace PerfService.Core.Targets;

/// <summary>
/// Checks declared targets against the results of one run, one outcome per (target, matching benchmark).
/// A pattern matches a result when it globs the full key (name, parameters, job) or just the name, so
/// "ctx/raw_fiber_switch" covers every parameter case and job of that benchmark, each checked on its own.
/// Absolute targets compare the result's central value, converted between units, with the declared value.
/// Relative targets compare value / baseline with the declared value; each benchmark is paired with the baseline
/// that shares its job and most of its parameters (BenchmarkDotNet runs the same [Params] grid for both).
/// </summary>
public static class TargetEvaluator
{
    public static IReadOnlyList<TargetOutcome> Evaluate(
        IReadOnlyList<TargetDeclaration> targets,
        IReadOnlyList<BenchmarkResult> results
    )
    {
        var outcomes = new List<TargetOutcome>();
        foreach (var target in targets)
        {
            var op = NormaliseOp(target.Op);
            if (op is null)
            {
                outcomes.Add(NotMeasured(target, null, $"unknown operator '{target.Op}' (use <, <=, > or >=)"));
                continue;
            }
            var matching = Matching(results, target.Benchmark, target.Measure);
            if (target.Baseline is null)
                Absolute(target, op, matching, outcomes);
            else
                Relative(target, op, matching, Matching(results, target.Baseline, target.Measure), outcomes);
        }
        return outcomes;
    }

    private static void Absolute(
        TargetDeclaration target,
        string op,
        List<BenchmarkResult> matching,
        List<TargetOutcome> outcomes
    )
    {
        if (matching.Count == 0)
        {
            outcomes.Add(NotMeasured(target, null, $"no {target.Measure} result matches '{target.Benchmark}'"));
            return;
        }
        foreach (var r in matching)
        {
            if (Central(r) is not { } value)
            {
                outcomes.Add(
                    NotMeasured(target, r.Key, r.Failed ? $"benchmark failed: {r.Error}" : "no value reported")
                );
                continue;
            }
            var unit = target.Unit ?? r.Unit;
            if (!Units.TryConvert(value, r.Unit, unit, out var actual))
            {
                outcomes.Add(NotMeasured(target, r.Key, $"cannot convert {r.Unit} to {unit}"));
                continue;
            }
            var spread = RelativeSpread(r, value);
            var status = Judge(actual, spread, op, target.Value, out var lower, out var upper);
            var figures = $"{target.Measure} {Num(actual)} {unit}";
            outcomes.Add(
                new TargetOutcome
                {
                    Target = target,
                    Benchmark = r.Key,
                    Op = op,
                    Actual = actual,
                    Limit = target.Value,
                    Unit = unit,
                    Value = value,
                    ActualLower = lower,
                    ActualUpper = upper,
                    Status = status,
                    Reason =
                        status == TargetStatus.AtRisk
                            ? $"{figures} [{Num(lower!.Value)}, {Num(upper!.Value)}] straddles {op} {Num(target.Value)} {unit}: at risk"
                            : $"{figures} {(status == TargetStatus.Pass ? "" : "not ")}{op} {Num(target.Value)} {unit}",
                }
            );
        }
    }

    private static void Relative(
        TargetDeclaration target,
        string op,
        List<BenchmarkResult> matching,
        List<BenchmarkResult> baselines,
        List<TargetOutcome> outcomes
    )
    {
        // A benchmark matching both patterns is a baseline, not a subject.
        matching.RemoveAll(baselines.Contains);
        if (matching.Count == 0)
        {
            outcomes.Add(
                NotMeasured(
                    target,
                    null,
                    $"no {target.Measure} result matches '{target.Benchmark}' apart from the baseline"
                )
            );
            return;
        }
        foreach (var r in matching)
        {
            var (baseline, ambiguous) = Pair(r, baselines);
            string? problem = baseline is null
                ? ambiguous.Count > 0
                    ? $"ambiguous baseline: {string.Join(", ", ambiguous)}"
                    : $"no {target.Measure} result matches baseline '{target.Baseline}'"
                : null;
            var value = Central(r);
            var baseValue = baseline is null ? null : Central(baseline);
            problem ??=
                value is null ? (r.Failed ? $"benchmark failed: {r.Error}" : "no value reported")
                : baseValue is null ? $"baseline {baseline!.Key} has no value"
                : baseValue.Value == 0 ? $"baseline {baseline!.Key} is zero"
                : !Units.TryConvert(value.Value, r.Unit, baseline!.Unit, out _)
                    ? $"units differ: {r.Unit} vs {baseline.Unit}"
                : null;
            if (problem is not null)
            {
                outcomes.Add(NotMeasured(target, r.Key, problem) with { Baseline = baseline?.Key });
                continue;
            }
            Units.TryConvert(value!.Value, r.Unit, baseline!.Unit, out var inBaseUnit);
            var ratio = inBaseUnit / baseValue!.Value;
            // The ratio's relative spread combines both benchmarks' (delta method).
            var a = RelativeSpread(r, value.Value);
            var b = RelativeSpread(baseline, baseValue.Value);
            var spread = a is { } x && b is { } y ? Math.Sqrt(x * x + y * y) : a ?? b;
            var status = Judge(ratio, spread, op, target.Value, out var lower, out var upper);
            outcomes.Add(
                new TargetOutcome
                {
                    Target = target,
                    Benchmark = r.Key,
                    Op = op,
                    Actual = ratio,
                    Limit = target.Value,
                    Baseline = baseline.Key,
                    Value = inBaseUnit,
                    BaselineValue = baseValue,
                    Unit = baseline.Unit,
                    ActualLower = lower,
                    ActualUpper = upper,
                    Status = status,
                    // Both benchmarks named: "1.28× the baseline" alone does not say which variant broke the target.
                    Reason =
                        status == TargetStatus.AtRisk
                            ? $"{r.Key} is {Num(ratio)}× {baseline.Key} [{Num(lower!.Value)}, {Num(upper!.Value)}], straddling {op} {Num(target.Value)}×: at risk"
                            : $"{r.Key} is {Num(ratio)}× {baseline.Key}, {(status == TargetStatus.Pass ? "" : "not ")}{op} {Num(target.Value)}×",
                }
            );
        }
    }

    // Best baseline: same job first, then most shared parameter values, fewest conflicting ones.
    private static (BenchmarkResult? Best, List<string> Ambiguous) Pair(
        BenchmarkResult r,
        List<BenchmarkResult> baselines
    )
    {
        BenchmarkResult? best = null;
        var bestScore = int.MinValue;
        var tied = new List<string>();
        foreach (var b in baselines)
        {
            var score = string.Equals(r.Job, b.Job, StringComparison.Ordinal) ? 1000 : 0;
            foreach (var (k, v) in b.Parameters)
            {
                var shared = false;
                var conflict = false;
                foreach (var (k2, v2) in r.Parameters)
                    if (k == k2)
                    {
                        if (v == v2)
                            shared = true;
                        else
                            conflict = true;
                    }
                score +=
                    shared ? 1
                    : conflict ? -1
                    : 0;
            }
            if (score > bestScore)
            {
                bestScore = score;
                best = b;
                tied.Clear();
                tied.Add(b.Key);
            }
            else if (score == bestScore)
                tied.Add(b.Key);
        }
        return tied.Count > 1 ? (null, tied) : (best, []);
    }

    private static List<BenchmarkResult> Matching(
        IReadOnlyList<BenchmarkResult> results,
        string pattern,
        string measure
    )
    {
        var list = new List<BenchmarkResult>();
        foreach (var r in results)
            if (
                string.Equals(r.Measure, measure, StringComparison.OrdinalIgnoreCase)
                && (Glob.IsMatch(pattern, r.Key) || Glob.IsMatch(pattern, r.Name))
            )
                list.Add(r);
        return list;
    }

    private static double? Central(BenchmarkResult r) =>
        r.Failed ? null : r.Value ?? r.Summary?.Median ?? r.Summary?.Mean;

    private static string? NormaliseOp(string op) =>
        op.Trim() switch
        {
            "<" => "<",
            "<=" or "≤" => "<=",
            ">" => ">",
            ">=" or "≥" => ">=",
            _ => null,
        };

    /// <summary>
    /// A target with a margin: it fails only when the whole 95% interval of the value is beyond the limit, passes when
    /// the whole interval holds, and is at risk in between, so that a value sitting on its limit does not flip between
    /// pass and fail from run to run. Without samples there is no interval and the point decides.
    /// </summary>
    private static TargetStatus Judge(
        double actual,
        double? relativeSpread,
        string op,
        double limit,
        out double? lower,
        out double? upper
    )
    {
        if (relativeSpread is not { } s || !(s > 0))
        {
            (lower, upper) = (null, null);
            return Holds(actual, op, limit) ? TargetStatus.Pass : TargetStatus.Fail;
        }
        lower = actual * (1 - 1.96 * s);
        upper = actual * (1 + 1.96 * s);
        var lowHolds = Holds(lower.Value, op, limit);
        var highHolds = Holds(upper.Value, op, limit);
        return lowHolds && highHolds ? TargetStatus.Pass
            : !lowHolds && !highHolds ? TargetStatus.Fail
            : TargetStatus.AtRisk;
    }

    /// <summary>Relative standard error of a result's central value from its samples (null with fewer than
    /// 3).</summary>
    private static double? RelativeSpread(BenchmarkResult r, double central)
    {
        if (r.Samples is not { Count: >= 3 } samples || !(central > 0))
            return null;
        var sorted = samples.Where(double.IsFinite).Order().ToArray();
        return sorted.Length < 3 ? null : Math.Sqrt(Comparison.RoundStatistics.LocationVariance(sorted)) / central;
    }

    private static bool Holds(double actual, string op, double limit) =>
        op switch
        {
            "<" => actual < limit,
            "<=" => actual <= limit,
            ">" => actual > limit,
            _ => actual >= limit,
        };

    private static TargetOutcome NotMeasured(TargetDeclaration target, string? benchmark, string reason) =>
        new()
        {
            Target = target,
            Benchmark = benchmark,
            Op = target.Op,
            Limit = target.Value,
            Unit = target.Unit,
            Status = TargetStatus.NotMeasured,
            Reason = reason,
        };

    private static string Num(double v) =>
        v.ToString(Math.Abs(v) >= 1000 ? "#,0.#" : "0.###", CultureInfo.InvariantCulture);
}
