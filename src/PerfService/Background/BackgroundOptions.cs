using System.ComponentModel.DataAnnotations;

namespace PerfService.Background;

/// <summary>Hangfire's server in this replica (section <c>Background</c>).</summary>
public sealed class BackgroundOptions
{
    public const string Section = "Background";

    /// <summary>
    /// Workers of this replica; unset means half the cores, at least one: analysis is CPU- and database-bound, and on
    /// a 2-core machine a second worker only competed with request handling (load test, same machine: ingest p99
    /// 830 → 425 ms with one worker, and as many analyses finished, each faster).
    /// </summary>
    [Range(1, 256)]
    public int? Workers { get; set; }

    public int WorkerCount => Workers ?? Math.Max(1, Environment.ProcessorCount / 2);
}
