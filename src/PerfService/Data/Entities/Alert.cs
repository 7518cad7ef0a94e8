namespace PerfService.Data.Entities;

public enum AlertKind
{
    Regression,
    ChangePoint,
    Target,
}

public enum AlertState
{
    Active,
    Acknowledged,
    Invalid,
    Fixed,
}

public class Alert
{
    public long Id { get; set; }
    public long ProjectId { get; set; }
    public AlertKind Kind { get; set; }
    public AlertState State { get; set; }
    public long? BenchmarkId { get; set; }
    public long? MeasureId { get; set; }
    public long? ProfileId { get; set; }
    public long? RunId { get; set; }

    /// <summary>Alerts from one run or one commit range share a group.</summary>
    public required string GroupKey { get; set; }

    /// <summary>The commit range the change lies in: after <see cref="FromCommit"/>, up to and including <see
    /// cref="ToCommit"/>.</summary>
    public string? FromCommit { get; set; }
    public string? ToCommit { get; set; }
    public required string Summary { get; set; }
    public AlertDetails Details { get; set; } = new();
    public string? IssueUrl { get; set; }

    /// <summary>The relative change the alert is about (0.12 = +12%), when it has one; groups report their largest and
    /// median.</summary>
    public double? Change { get; set; }

    /// <summary>The <see cref="AlertGroup"/> the alert was grouped into when it opened (null for alerts older than
    /// groups).</summary>
    public long? AlertGroupId { get; set; }
    public DateTimeOffset CreatedAt { get; set; }
    public DateTimeOffset UpdatedAt { get; set; }

    // Navigations, for reads that project names (a run's commit SHA, profile name…) without correlated subqueries.
    public Project? Project { get; set; }
    public Benchmark? Benchmark { get; set; }
    public Measure? Measure { get; set; }
    public HardwareProfile? Profile { get; set; }
}
