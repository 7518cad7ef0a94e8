using System.Text;
using System.Text.Json;
using PerfService.Core.Profiles;
using static PerfService.Tests.Profiles.ProfileFixtures;

namespace PerfService.Tests.Profiles;

public sealed class SpeedscopeReaderTests
{
    private static FoldedStacks Read(string json, ProfileLimits? limits = null) =>
        ProfileFixtures.Read(Encoding.UTF8.GetBytes(json), ProfileFormat.Speedscope, limits);

    private static string File(string frames, string profiles) =>
        $$"""{ "$schema": "https://www.speedscope.app/file-format-schema.json", "shared": { "frames": [{{frames}}] }, "profiles": [{{profiles}}] }""";

    private static string Evented(string unit, params (char Type, int Frame, double At)[] events) =>
        $$"""{ "type": "evented", "name": "thread", "unit": "{{unit}}", "startValue": 0, "endValue": 10, "events": [{{string.Join(",",
            events.Select(e => JsonSerializer.Serialize(new { type = e.Type.ToString(), frame = e.Frame, at = e.At })))}}] }""";

    private const string BdnFixture = "bdn-rivulet-sequential.speedscope.json.gz";
    private const string Sequential = "Rivulet.Benchmarks!Rivulet.Benchmarks.CoreOperatorsBenchmarks.Sequential()";

    [Fact]
    public void Reads_the_eventpipe_profilers_file_as_the_time_its_threads_ran_managed_code()
    {
        // The file as BenchmarkDotNet wrote it, gzipped for the repository (the reader unzips what it is given).
        var folded = ProfileFixtures.Read(Bytes(BdnFixture), ProfileFormat.Speedscope);

        // Figures from an independent fold of the same file (PROVENANCE.md): 7 threads, 22.6 s of them, of which
        // 536 ms on CPU in managed code (the rest outside it, nearly all waiting, is left out), 210 ms of that in idle
        // pool workers (left out) and GC polls (their callers' time): 326 ms on 44 stacks. The benchmark's own frame
        // is on 11 ms. The thread-time pseudo-frames are gone: CPU time is its frame's own time.
        Assert.Equal(326, folded.TotalSamples);
        Assert.Equal(44, folded.Stacks.Count);
        Assert.Equal(11, Total(folded, Sequential));
        Assert.DoesNotContain(folded.Stacks.Keys, s => s.Contains("CPU_TIME", StringComparison.Ordinal) || s.Contains("UNMANAGED_CODE_TIME", StringComparison.Ordinal));
    }

    [Fact]
    public void A_thread_time_profile_keeps_managed_code_on_cpu_and_leaves_out_waits_and_the_finalizer_thread()
    {
        // The shape of BenchmarkDotNet's file for a slowed Rivulet benchmark: the pool thread runs the benchmark, then
        // burns CPU in the slowdown, then waits; the finalizer thread ran once and then "ran" for seconds in
        // RunFinalizers, which is how its waits come out.
        var json = File(
            """{ "name": "Thread (11) (.NET ThreadPool)" }, { "name": "Bench.Run()" }, { "name": "Slowdown.SlowdownWork(int64)" }, { "name": "CPU_TIME" }, """
            + """{ "name": "UNMANAGED_CODE_TIME" }, { "name": "Thread (12) (.NET Finalizer Thread)" }, { "name": "System.GC.RunFinalizers()" }""",
            Evented("milliseconds", ('O', 0, 0), ('O', 1, 0), ('O', 3, 0), ('C', 3, 4), ('O', 2, 4), ('O', 3, 4), ('C', 3, 10), ('C', 2, 10),
                ('O', 4, 10), ('C', 4, 40), ('C', 1, 40), ('C', 0, 40)) + "," +
            Evented("milliseconds", ('O', 5, 0), ('O', 6, 0), ('O', 3, 0), ('C', 3, 3300), ('C', 6, 3300), ('C', 5, 3300)));

        var folded = Read(json);

        Assert.Equal(new Dictionary<string, long>
        {
            ["Thread (11) (.NET ThreadPool);Bench.Run()"] = 4,
            ["Thread (11) (.NET ThreadPool);Bench.Run();Slowdown.SlowdownWork(int64)"] = 6,
        }, folded.Stacks);
    }

    [Fact]
    public void The_slowed_loop_is_the_top_grown_frame_of_a_real_rivulet_pair_not_the_gc_poll_or_the_idle_pool()
    {
        // Rivulet's WithRetries profiled by the agent on base and on head with the demo's slower retries (PROVENANCE.md).
        // Read as EventPipe writes them, the head's largest growth was the thread pool's idle spin
        // (LowLevelLifoSemaphore.Wait) and the GC poll the sampler stops busy threads at, both above the slowed loop.
        var diff = DifferentialProfile.Build(
            ProfileFixtures.Read(Bytes("bdn-rivulet-withretries-base.speedscope.json.gz"), ProfileFormat.Speedscope),
            ProfileFixtures.Read(Bytes("bdn-rivulet-withretries-slowed.speedscope.json.gz"), ProfileFormat.Speedscope));

        Assert.Equal("Rivulet.Benchmarks!PerfBenches.Shared.Slowdown.SlowdownWork(int64)", diff.Grown[0].Frame);
        Assert.DoesNotContain(diff.Grown, g => g.Frame.Contains("PollGC", StringComparison.Ordinal)
            || g.Frame.Contains("LowLevelLifoSemaphore.Wait", StringComparison.Ordinal));
        // The two runs' process and thread roots line up, so the benchmark's own paths are compared, not new on head.
        var process = Assert.Single(diff.Root.Children);
        Assert.Equal("Process dotnet", process.Name);
        Assert.True(process.Base > 0 && process.Head > 0);
    }

    [Fact]
    public void A_gc_poll_is_its_callers_time_and_an_idle_pool_worker_is_left_out()
    {
        const string Core = "System.Private.CoreLib!System.Threading.";
        var json = File(
            $$"""{ "name": "Thread (11) (.NET ThreadPool)" }, { "name": "{{Core}}Thread.StartCallback()" }, """
            + $$"""{ "name": "{{Core}}PortableThreadPool+WorkerThread.WorkerThreadStart()" }, { "name": "{{Core}}LowLevelLifoSemaphore.Wait(int32,bool)" }, """
            + $$"""{ "name": "{{Core}}Thread.<PollGC>g__PollGCWorker|67_0()" }, { "name": "CPU_TIME" }, { "name": "Bench.Loop()" }""",
            // The pool worker waits for work (5 ms, 2 of them stopped at a GC poll), then runs the benchmark's loop,
            // which the sampler stops at a GC poll for 7 of its 9 ms.
            Evented("milliseconds", ('O', 0, 0), ('O', 1, 0), ('O', 2, 0), ('O', 3, 0), ('O', 5, 0), ('C', 5, 3), ('O', 4, 3), ('O', 5, 3),
                ('C', 5, 5), ('C', 4, 5), ('C', 3, 5), ('O', 6, 5), ('O', 5, 5), ('C', 5, 7), ('O', 4, 7), ('O', 5, 7), ('C', 5, 14),
                ('C', 4, 14), ('C', 6, 14), ('C', 2, 14), ('C', 1, 14), ('C', 0, 14)));

        var folded = Read(json);

        Assert.Equal(new Dictionary<string, long>
        {
            [$"Thread (11) (.NET ThreadPool);{Core}Thread.StartCallback();{Core}PortableThreadPool+WorkerThread.WorkerThreadStart();Bench.Loop()"] = 9,
        }, folded.Stacks);
    }

    [Fact]
    public void Refuses_a_truncated_file()
    {
        using var gzip = new System.IO.Compression.GZipStream(new MemoryStream(Bytes(BdnFixture)), System.IO.Compression.CompressionMode.Decompress);
        using var json = new MemoryStream();
        gzip.CopyTo(json);

        var e = Assert.Throws<ProfileFormatException>(() => ProfileFixtures.Read(json.ToArray()[..100_000], ProfileFormat.Speedscope));
        Assert.StartsWith("not speedscope JSON", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Refuses_a_gzip_bomb_at_the_size_limit() =>
        Assert.Equal("the profile unzips to more than 1000000 bytes", Assert.Throws<ProfileFormatException>(
            () => ProfileFixtures.Read(GzipOfZeros(10_000_000), ProfileFormat.Speedscope, new ProfileLimits { MaxBytes = 1_000_000 })).Message);

    [Fact]
    public void Evented_profiles_count_the_time_each_stack_is_open_in_milliseconds()
    {
        // main opens at 0, work runs 1..4 µs-scaled, main alone again until 6: in microseconds, x1000 to be whole ms.
        var json = File("""{ "name": "main" }, { "name": "work" }""",
            Evented("microseconds", ('O', 0, 0), ('O', 1, 1000), ('C', 1, 4000), ('C', 0, 6000)) + "," +
            Evented("milliseconds", ('O', 0, 0), ('O', 1, 2), ('C', 1, 3), ('C', 0, 3)));

        var folded = Read(json);

        Assert.Equal(new Dictionary<string, long> { ["main"] = 3 + 2, ["main;work"] = 3 + 1 }, folded.Stacks);
    }

    [Fact]
    public void Sampled_profiles_count_samples_or_their_weights_root_first()
    {
        var json = File("""{ "name": "a" }, { "name": "b" }""",
            """{ "type": "sampled", "name": "t1", "unit": "none", "startValue": 0, "endValue": 3, "samples": [[0, 1], [0, 1], [0]] },""" +
            """{ "type": "sampled", "name": "t2", "unit": "milliseconds", "startValue": 0, "endValue": 3, "samples": [[0, 1]], "weights": [2.5] }""");

        Assert.Equal(new Dictionary<string, long> { ["a;b"] = 2 + 3, ["a"] = 1 }, Read(json).Stacks);
    }

    [Theory]
    [InlineData("""{ "shared": { "frames": [] } }""", "$.profiles: expected an array of profiles")]
    [InlineData("""{ "shared": { "frames": [{ "name": 3 }] }, "profiles": [] }""", "$.shared.frames[0]: expected an object with a string \"name\"")]
    [InlineData("""{ "shared": { "frames": [{ "name": "a" }] }, "profiles": [{ "type": "evented", "unit": "milliseconds", "events": [{ "type": "O", "frame": 4, "at": 0 }] }] }""",
        "$.profiles[0].events[0].frame: expected a frame index from 0 to 0")]
    [InlineData("""{ "shared": { "frames": [{ "name": "a" }, { "name": "b" }] }, "profiles": [{ "type": "evented", "unit": "milliseconds", "events": [{ "type": "O", "frame": 0, "at": 0 }, { "type": "C", "frame": 1, "at": 1 }] }] }""",
        "$.profiles[0].events[1]: closes frame 1, which is not the innermost open frame")]
    [InlineData("""{ "shared": { "frames": [{ "name": "a" }] }, "profiles": [{ "type": "evented", "unit": "milliseconds", "events": [{ "type": "O", "frame": 0, "at": 5 }, { "type": "C", "frame": 0, "at": 1 }] }] }""",
        "$.profiles[0].events[1]: time 1 is before the previous event's 5")]
    [InlineData("""{ "shared": { "frames": [{ "name": "a" }] }, "profiles": [{ "type": "flame", "unit": "milliseconds" }] }""",
        "$.profiles[0].type: expected \"evented\" or \"sampled\"")]
    [InlineData("""{ "shared": { "frames": [{ "name": "a" }] }, "profiles": [{ "type": "sampled", "unit": "parsecs", "samples": [] }] }""",
        "$.profiles[0].unit: unknown unit \"parsecs\"")]
    [InlineData("""{ "shared": { "frames": [{ "name": "a" }] }, "profiles": [{ "type": "sampled", "unit": "none", "samples": [[0]], "weights": [] }] }""",
        "$.profiles[0].weights: expected one weight per sample (1)")]
    public void Refuses_a_broken_file_saying_where(string json, string error) =>
        Assert.Equal(error, Assert.Throws<ProfileFormatException>(() => Read(json)).Message);

    [Fact]
    public void Refuses_a_stack_deeper_than_the_limit_where_it_grows_too_deep()
    {
        var events = Enumerable.Range(0, 2_000).Select(i => ('O', 0, (double)i)).ToArray();

        var e = Assert.Throws<ProfileFormatException>(() => Read(File("""{ "name": "r" }""", Evented("milliseconds", events))));

        Assert.Equal("$.profiles[0].events[1024]: stack is deeper than 1024 frames", e.Message);
    }

    [Fact]
    public void Refuses_more_stacks_than_the_limit()
    {
        var frames = string.Join(",", Enumerable.Range(0, 20).Select(i => $$"""{ "name": "f{{i}}" }"""));
        var samples = string.Join(",", Enumerable.Range(0, 20).Select(i => $"[{i}]"));
        var json = File(frames, $$"""{ "type": "sampled", "unit": "none", "samples": [{{samples}}] }""");

        var e = Assert.Throws<ProfileFormatException>(() => Read(json, new ProfileLimits { MaxStacks = 10 }));
        Assert.EndsWith("more than 10 distinct stacks", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Keeps_a_frame_name_of_markup_as_text_in_one_frame()
    {
        var name = JsonSerializer.Serialize(Script + ";a\nb");
        var json = File($$"""{ "name": "main" }, { "name": {{name}} }""", """{ "type": "sampled", "unit": "none", "samples": [[0, 1]] }""");

        Assert.Equal(["main", Script + ":a b"], FoldedStacks.Frames(Assert.Single(Read(json).Stacks).Key));
    }

    [Fact]
    public void Refuses_text_that_is_not_json() =>
        Assert.StartsWith("not speedscope JSON", Assert.Throws<ProfileFormatException>(() => Read("{ \"shared\": ")).Message, StringComparison.Ordinal);
}
