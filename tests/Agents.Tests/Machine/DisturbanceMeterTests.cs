using PerfService.Agents.Machine;
using PerfService.Core.Disturbances;

namespace PerfService.Agents.Tests.Machine;

/// <summary>The parsers and the meter on text read from /proc of a 2-vCPU VM shared with other builds, with a busy loop
/// (`sh -c 'while :; do :; done'`) running beside the reads.</summary>
public sealed class DisturbanceMeterTests
{
    // /proc/stat 2 s apart (cpu lines and procs_running; the intr, ctxt and softirq lines are left out for length).
    private const string StatBefore = """
        cpu  590975 1056120 263261 307202 2565 0 5471 8051 0 0
        cpu0 294051 527229 127636 161067 602 0 2265 3970 0 0
        cpu1 296923 528890 135624 146134 1963 0 3206 4081 0 0
        intr 11977149 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 13 0 0
        ctxt 111821858
        btime 1795766580
        processes 31360
        procs_running 83
        procs_blocked 0
        """;
    private const string StatAfter = """
        cpu  591002 1056467 263294 307202 2565 0 5471 8052 0 0
        cpu0 294051 527415 127653 161067 602 0 2265 3971 0 0
        cpu1 296950 529052 135640 146134 1963 0 3206 4081 0 0
        procs_running 88
        """;

    // The busy loop's own line, and a process whose name holds ") R 1 (" to try the parser.
    private const string BusyLoop = "31358 (sh) R 1 31355 16414 0 -1 4194304 85 0 0 0 30 0 0 0 20 0 1 0 1120436 2654208 399 18446744073709551615 93878229901312 93878229978041 140730044292528 0 0 0 0 6 65536 0 0 0 17 1 0 0 0 0 0 93878230007344 93878230012480 93878774444032 140730044295646 140730044295672 140730044295672 140730044297196 0";
    private const string OddName = "31433 (x) R 1 (y) S 31432 31429 16414 0 -1 4194304 141 0 0 0 0 0 0 0 20 0 1 0 1120907 2990080 410 18446744073709551615 94519589273600 94519589291529 140732508294128 0 0 0 0 6 0 1 0 0 17 1 0 0 0 0 0 94519589305616 94519589306880 94520110166016 140732508301793 140732508301810 140732508301810 140732508303337 0";

    [Fact]
    public void Proc_stat_gives_ticks_per_cpu_and_runnable_tasks()
    {
        var stat = LoadFiles.ParseProcStat(StatBefore);
        Assert.Equal([0, 1], stat.Cpus.Keys.Order());
        Assert.Equal(83, stat.ProcsRunning);
        // busy = user + nice + system + irq + softirq; total adds idle, iowait and steal.
        Assert.Equal(new CpuTicks(294051 + 527229 + 127636 + 2265, 3970, 294051 + 527229 + 127636 + 161067 + 602 + 2265 + 3970), stat.Cpus[0]);
        Assert.Equal(stat.Cpus[0] + stat.Cpus[1], stat.Of(null));
        Assert.Equal(stat.Cpus[1], stat.Of([1, 7]));
    }

    [Fact]
    public void Task_stat_reads_fields_after_the_last_parenthesis()
    {
        Assert.Equal(new TaskStat(31358, 'R', 1, 30), LoadFiles.ParseTaskStat(BusyLoop));
        Assert.Equal(new TaskStat(31433, 'S', 31432, 0), LoadFiles.ParseTaskStat(OddName));
        Assert.Null(LoadFiles.ParseTaskStat("31433 (x"));
        Assert.Null(LoadFiles.ParseTaskStat(""));
    }

    [Theory]
    [InlineData("2-3", new[] { 2, 3 })]
    [InlineData("0,4-5,4", new[] { 0, 4, 5 })]
    [InlineData(" 7\n", new[] { 7 })]
    public void Cpu_lists_as_taskset_writes_them(string text, int[] cpus) => Assert.Equal(cpus, LoadFiles.ParseCpuList(text));

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("3-1")]
    [InlineData("a")]
    [InlineData("1-2-3")]
    public void Malformed_cpu_lists_mean_all_cpus(string? text) => Assert.Null(LoadFiles.ParseCpuList(text));

    [Fact]
    public void A_busy_neighbour_shows_as_other_processes_cpu_and_the_round_is_disturbed()
    {
        var meter = new DisturbanceMeter(null);
        // The suite's tree used 100 ticks of the 2 × 200 the two CPUs had: everything else busy was someone else's.
        meter.Add(new LoadReading(TimeSpan.Zero, LoadFiles.ParseProcStat(StatBefore), OwnTicks: 5_000, OwnRunnable: 1, LoadAverage: 70));
        meter.Add(new LoadReading(TimeSpan.FromSeconds(1), LoadFiles.ParseProcStat(StatAfter), OwnTicks: 5_100, OwnRunnable: 2, LoadAverage: 72));
        var d = meter.Result()!;

        // Deltas of the per-CPU lines: busy 203 + 205 = 408, steal 1, total 409 ticks over both CPUs.
        Assert.Equal(2, d.SuiteCores);
        Assert.Equal(Math.Round((408 - 100) / 409.0, 4), d.OtherCpuShare);
        Assert.Equal(Math.Round(1 / 409.0, 4), d.StealShare);
        Assert.Equal((82 + 86) / 2.0, d.OtherRunnable);
        Assert.Equal(71, d.LoadAverage);
        Assert.Null(d.FrequencyRatio);
        Assert.Null(d.ThrottleEvents);
        Assert.True(d.Disturbed);
        Assert.Equal("other processes used 1.5 cores", DisturbanceRule.Describe(d));
    }

    [Fact]
    public void Only_the_suites_cpus_count_when_it_is_pinned()
    {
        var meter = new DisturbanceMeter([0]);
        meter.Add(new LoadReading(TimeSpan.Zero, LoadFiles.ParseProcStat(StatBefore), 0, 0));
        meter.Add(new LoadReading(TimeSpan.FromSeconds(1), LoadFiles.ParseProcStat(StatAfter), 200, 0));
        var d = meter.Result()!;
        // cpu0 alone: busy 186 + 17 = 203 of 204 ticks; the suite's 200 leave 3 to others, under the threshold.
        Assert.Equal(1, d.SuiteCores);
        Assert.Equal(Math.Round(3 / 204.0, 4), d.OtherCpuShare);
        Assert.False(d.Disturbed);
        Assert.Null(DisturbanceRule.Describe(d));
    }

    [Fact]
    public void Steal_and_throttling_disturb_a_round_and_are_said()
    {
        static string Stat(long steal) => $"cpu0 {1000} 0 0 {1000 - steal} 0 0 0 {steal} 0 0\nprocs_running 1\n";
        var meter = new DisturbanceMeter(null);
        meter.Add(new LoadReading(TimeSpan.Zero, LoadFiles.ParseProcStat(Stat(0)), 0, 1, FrequencyRatio: 1.0, ThrottleCount: 10));
        meter.Add(new LoadReading(TimeSpan.FromSeconds(2), LoadFiles.ParseProcStat("cpu0 1180 0 0 1000 0 0 0 20 0 0\nprocs_running 1\n"), 180, 1,
            FrequencyRatio: 0.5, ThrottleCount: 13));
        var d = meter.Result()!;
        Assert.Equal(0.1, d.StealShare);
        Assert.Equal(0, d.OtherCpuShare);
        Assert.Equal(3, d.ThrottleEvents);
        Assert.Equal(0.75, d.FrequencyRatio);
        Assert.True(d.Disturbed);
        Assert.Equal("CPU steal 10%, 3 thermal throttling events", DisturbanceRule.Describe(d));
    }

    [Fact]
    public void One_reading_measures_nothing()
    {
        var meter = new DisturbanceMeter(null);
        Assert.Null(meter.Result());
        meter.Add(new LoadReading(TimeSpan.Zero, LoadFiles.ParseProcStat(StatBefore), 0, 0));
        Assert.Null(meter.Result());
    }

    [Fact]
    public void The_probe_reads_this_machine()
    {
        if (!File.Exists("/proc/stat")) return; // macOS: no readings, no disturbance
        var reading = new DisturbanceProbe().Read(null)!;
        Assert.Equal(Environment.ProcessorCount, reading.Stat.Cpus.Count);
        Assert.True(reading.OwnTicks > 0, "the test process itself has used CPU");
        Assert.True(reading.OwnRunnable >= 1, "the reading thread is running");
        Assert.NotNull(reading.LoadAverage);
    }
}
