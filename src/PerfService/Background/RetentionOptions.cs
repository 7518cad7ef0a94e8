using System.ComponentModel.DataAnnotations;

namespace PerfService.Background;

/// <summary>How long what may be dropped is kept (section <c>Retention</c>).</summary>
public sealed class RetentionOptions
{
    public const string Section = "Retention";

    /// <summary>Days raw uploads are kept; 0 keeps them for ever. Results and samples are never removed by this.</summary>
    [Range(0, 36_500)]
    public int ArtifactDays { get; set; } = 90;
}
