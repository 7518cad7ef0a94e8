using System.ComponentModel.DataAnnotations;

namespace PerfService.Background;

/// <summary>When recurring work runs (section <c>Schedule</c>).</summary>
public sealed class ScheduleOptions
{
    public const string Section = "Schedule";

    /// <summary>Cron expression (UTC) of the scheduled baseline of every project's default branch; 02:00 daily by
    /// default.</summary>
    [
        Required,
        RegularExpression(
            @"^\S+(\s+\S+){4,5}$",
            ErrorMessage = "Schedule:BaselineCron must be a cron expression of 5 or 6 fields"
        )
    ]
    public string BaselineCron { get; set; } = "0 2 * * *";

    /// <summary>
    /// Whether this service schedules its recurring jobs (lease sweep, retention, scheduled baselines); true by
    /// default.
    /// False removes them from the schedule, e.g. for a service whose every job is started by hand, as a test host does
    /// so that the jobs it is testing never run twice under it.
    /// </summary>
    public bool Recurring { get; set; } = true;
}
