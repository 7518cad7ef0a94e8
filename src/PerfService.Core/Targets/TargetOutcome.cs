using PerfService.Core.Suites;

namespace PerfService.Core.Targets;

public enum TargetStatus
{
    Pass,
    Fail,
    NotMeasured,

    /// <summary>The value's interval straddles the limit: shown as a warning, never failing a check.</summary>
    AtRisk,
}

/// <summary>
/// One target checked against one benchmark. Absolute targets: <see cref="Actual"/> is the benchmark's value in the
/// target's unit (<see cref="Unit"/>) and <see cref="Limit"/> the declared value. Relative targets: <see
/// cref="Actual"/>
/// is the ratio value / baseline value, compared with <see cref="Limit"/>; <see cref="Baseline"/> names the
/// benchmark it was paired with. <see cref="Reason"/> explains NotMeasured (and describes the check otherwise).
/// </summary>
public sealed record TargetOutcome
{
    public required TargetDeclaration Target { get; init; }
    public TargetStatus Status { get; init; }

    /// <summary>Key of the benchmark checked; null when nothing matched.</summary>
    public string? Benchmark { get; init; }
    public string Op { get; init; } = "";
    public double? Actual { get; init; }
    public double Limit { get; init; }
    public string? Unit { get; init; }
    public string? Baseline { get; init; }
    public double? Value { get; init; }
    public double? BaselineValue { get; init; }
    public required string Reason { get; init; }

    /// <summary>The 95% interval of <see cref="Actual"/> from the run's samples (null without samples).</summary>
    public double? ActualLower { get; init; }
    public double? ActualUpper { get; init; }

    public bool IsRelative => Target.Baseline is not null;
}
