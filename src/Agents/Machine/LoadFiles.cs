using System.Globalization;

namespace PerfService.Agents.Machine;

/// <summary>Ticks of one CPU (or all of them) from /proc/stat. Busy counts user, nice, system, irq and softirq (guest
/// time is already inside user); idle and iowait are idle; steal is time the hypervisor gave to another
/// guest.</summary>
public readonly record struct CpuTicks(long Busy, long Steal, long Total)
{
    public static CpuTicks operator +(CpuTicks a, CpuTicks b) =>
        new(a.Busy + b.Busy, a.Steal + b.Steal, a.Total + b.Total);

    public static CpuTicks operator -(CpuTicks a, CpuTicks b) =>
        new(a.Busy - b.Busy, a.Steal - b.Steal, a.Total - b.Total);
}

/// <summary>/proc/stat: ticks per CPU (by number) and the tasks runnable right now.</summary>
public sealed record ProcStat(IReadOnlyDictionary<int, CpuTicks> Cpus, int ProcsRunning)
{
    /// <summary>The ticks of the given CPUs (all when null); CPUs the file does not list count for nothing.</summary>
    public CpuTicks Of(IReadOnlyCollection<int>? cpus) =>
        (cpus ?? (IReadOnlyCollection<int>)Cpus.Keys).Aggregate(
            default(CpuTicks),
            (sum, c) => Cpus.TryGetValue(c, out var t) ? sum + t : sum
        );
}

/// <summary>One line of /proc/[pid]/stat or /proc/[pid]/task/[tid]/stat: its state, parent, and the CPU time of the
/// task plus its waited-for children (utime + stime + cutime + cstime), in clock ticks like /proc/stat.</summary>
public readonly record struct TaskStat(int Pid, char State, int ParentPid, long Ticks);

/// <summary>Pure parsers of the Linux files the agent reads to see what else runs beside a harness.</summary>
public static class LoadFiles
{
    public static ProcStat ParseProcStat(string text)
    {
        var cpus = new Dictionary<int, CpuTicks>();
        var running = 0;
        foreach (var line in text.Split('\n'))
        {
            var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (fields.Length == 0)
                continue;
            if (fields[0] == "procs_running" && fields.Length > 1)
                running = int.Parse(fields[1], CultureInfo.InvariantCulture);
            else if (
                fields[0].Length > 3
                && fields[0].StartsWith("cpu", StringComparison.Ordinal)
                && int.TryParse(fields[0].AsSpan(3), NumberStyles.None, CultureInfo.InvariantCulture, out var cpu)
            )
                cpus[cpu] = Ticks(fields);
        }
        return new ProcStat(cpus, running);
    }

    // user nice system idle iowait irq softirq steal [guest guest_nice]; older kernels stop earlier.
    private static CpuTicks Ticks(string[] fields)
    {
        long Field(int i) => i < fields.Length ? long.Parse(fields[i], CultureInfo.InvariantCulture) : 0;
        long user = Field(1),
            nice = Field(2),
            system = Field(3),
            idle = Field(4),
            iowait = Field(5),
            irq = Field(6),
            softirq = Field(7),
            steal = Field(8);
        var busy = user + nice + system + irq + softirq;
        return new CpuTicks(busy, steal, busy + idle + iowait + steal);
    }

    /// <summary>The command name sits in parentheses and may itself hold spaces and parentheses: the fields start after
    /// the last ')'. Null for a task that vanished or a line too short.</summary>
    public static TaskStat? ParseTaskStat(string text)
    {
        var open = text.IndexOf('(');
        var close = text.LastIndexOf(')');
        if (open <= 0 || close < open)
            return null;
        var fields = text[(close + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        // After the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
        if (fields.Length < 15 || fields[0].Length != 1)
            return null;
        long Field(int i) => long.Parse(fields[i], CultureInfo.InvariantCulture);
        return new TaskStat(
            int.Parse(text[..open], CultureInfo.InvariantCulture),
            fields[0][0],
            (int)Field(1),
            Field(11) + Field(12) + Field(13) + Field(14)
        );
    }

    /// <summary>A CPU list as taskset and /sys write it ("0-3,6,8-9"); null for an empty or malformed list.</summary>
    public static IReadOnlyList<int>? ParseCpuList(string? text)
    {
        if (string.IsNullOrWhiteSpace(text))
            return null;
        var cpus = new SortedSet<int>();
        foreach (var part in text.Trim().Split(','))
        {
            var range = part.Split('-');
            if (
                range.Length is < 1 or > 2
                || !int.TryParse(range[0], NumberStyles.None, CultureInfo.InvariantCulture, out var from)
            )
                return null;
            var to = from;
            if (range.Length == 2 && !int.TryParse(range[1], NumberStyles.None, CultureInfo.InvariantCulture, out to))
                return null;
            if (to < from || to - from > 4096)
                return null;
            for (var c = from; c <= to; c++)
                cpus.Add(c);
        }
        return [.. cpus];
    }

    /// <summary>A number alone in a /sys file (scaling_cur_freq, core_throttle_count).</summary>
    public static long? ParseNumber(string? text) =>
        long.TryParse(text?.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var n) ? n : null;
}
