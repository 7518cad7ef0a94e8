using System.Diagnostics;
using System.Runtime.InteropServices;

namespace PerfBenches.Shared;

/// <summary>
/// Sleeps for a duration with sub-millisecond precision: nanosleep on Unix (precise to the kernel's timer slack,
/// ~50 µs), Thread.Sleep elsewhere. Thread.Sleep and .NET timers work in whole milliseconds, and .NET's timer queue
/// on Linux advances with CLOCK_MONOTONIC_COARSE (4 ms ticks on a HZ=250 kernel).
/// </summary>
public static partial class PreciseSleep
{
    /// <summary>Sleeps about <paramref name="stopwatchTicks"/> Stopwatch ticks; may return early on a signal.</summary>
    public static void For(long stopwatchTicks)
    {
        if (stopwatchTicks <= 0) return;
        var nanos = (long)(stopwatchTicks * (1_000_000_000.0 / Stopwatch.Frequency));
        if (OperatingSystem.IsLinux() || OperatingSystem.IsMacOS() || OperatingSystem.IsFreeBSD())
        {
            var request = new Timespec { Seconds = nanos / 1_000_000_000, Nanoseconds = nanos % 1_000_000_000 };
            _ = NanoSleep(in request, IntPtr.Zero);
        }
        else
        {
            Thread.Sleep(TimeSpan.FromTicks(Math.Max(TimeSpan.TicksPerMillisecond, nanos / 100)));
        }
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct Timespec
    {
        public long Seconds;
        public long Nanoseconds;
    }

    [LibraryImport("libc", EntryPoint = "nanosleep")]
    private static partial int NanoSleep(in Timespec request, IntPtr remaining);
}
