using System.ComponentModel.DataAnnotations;

namespace PerfService.Background;

/// <summary>How long stored data is kept in full (section <c>Retention</c>). 0 keeps it forever.</summary>
public sealed class RetentionOptions
{
    public const string Section = "Retention";

    /// <summary>Days raw uploads and CPU profiles are kept (they only matter for re-parsing and explaining recent
    /// runs).</summary>
    [Range(0, 36_500)]
    public int ArtifactDays { get; set; } = 90;

    /// <summary>Days a run's results keep every sample. Afterwards only the summary stays (value, mean, median,
    /// std dev, min, max, confidence interval, sample count): history, charts and change points read those, and a
    /// pull request's fallback baseline reads the branch's recent runs, well inside this window.</summary>
    [Range(0, 36_500)]
    public int SampleDays { get; set; } = 180;

    /// <summary>Runs summarised per transaction: bounds lock time and WAL per step.</summary>
    [Range(1, 10_000)]
    public int SampleBatchRuns { get; set; } = 100;
}
