using System.Diagnostics;
using Hangfire;
using Hangfire.Client;
using Hangfire.Common;
using Hangfire.Server;

namespace PerfService.Hosting.Telemetry;

/// <summary>
/// Carries a trace across Hangfire: the job keeps the W3C trace context of the activity that queued it (a job
/// parameter), and its execution is an activity linked to that one — a link, not a parent, because a job may run
/// minutes later, be retried, or be one of many queued by one request. So an ingest leads to its analysis, and the
/// analysis to the pull-request comparison and publication. Also counts attempts that threw.
/// </summary>
public sealed class HangfireTracing : JobFilterAttribute, IClientFilter, IServerFilter
{
    private const string Parameter = "traceparent";
    private const string ItemKey = "perf.activity";
    private static int s_registered;

    /// <summary>Hangfire's filters are process-wide; several hosts in one process (the tests) register once.</summary>
    public static void RegisterOnce()
    {
        if (Interlocked.Exchange(ref s_registered, 1) == 0)
            GlobalJobFilters.Filters.Add(new HangfireTracing());
    }

    public void OnCreating(CreatingContext context)
    {
        if (Activity.Current is { } current)
            context.SetJobParameter(Parameter, current.Id);
    }

    public void OnCreated(CreatedContext context) { }

    public void OnPerforming(PerformingContext context)
    {
        var links =
            context.GetJobParameter<string>(Parameter) is { } parent
            && ActivityContext.TryParse(parent, null, out var linked)
                ? new[] { new ActivityLink(linked) }
                : null;
        var activity = PerfTelemetry.Source.StartActivity(
            ActivityKind.Consumer,
            links: links,
            name: JobName(context.BackgroundJob.Job)
        );
        if (activity is null)
            return;
        activity.SetTag("hangfire.job_id", context.BackgroundJob.Id);
        context.Items[ItemKey] = activity;
    }

    public void OnPerformed(PerformedContext context)
    {
        if (context.Exception is not null && !context.ExceptionHandled)
            PerfTelemetry.BackgroundFailed(JobName(context.BackgroundJob.Job));
        if (!context.Items.TryGetValue(ItemKey, out var item) || item is not Activity activity)
            return;
        if (context.Exception is { } e && !context.ExceptionHandled)
            activity.SetStatus(ActivityStatusCode.Error, e.GetBaseException().Message);
        activity.Dispose();
    }

    private static string JobName(Job? job) => job is null ? "job" : $"{job.Type.Name}.{job.Method.Name}";
}
