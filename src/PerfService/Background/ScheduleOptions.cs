using System.ComponentModel.DataAnnotations;

namespace PerfService.Background;

/// <summary>When recurring work runs (section <c>Schedule</c>).</summary>
public sealed class ScheduleOptions
{
    public const string Section = "Schedule";

    /// <summary>Cron expression (UTC) of the scheduled baseline of every project's default branch; 02:00 daily by default.</summary>
    [Required, RegularExpression(@"^\S+(\s+\S+){4,5}$", ErrorMessage = "Schedule:BaselineCron must be a cron expression of 5 or 6 fields")]
    public string BaselineCron { get; set; } = "0 2 * * *";
}
