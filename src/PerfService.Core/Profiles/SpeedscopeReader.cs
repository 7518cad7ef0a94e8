using System.Text.Json;

namespace PerfService.Core.Profiles;

/// <summary>
/// speedscope's file format (https://www.speedscope.app/file-format-schema.json), as BenchmarkDotNet's EventPipe
/// profiler writes it: frame names in <c>shared.frames</c>, then profiles (one a thread) that are "evented" (open and
/// close events at times) or "sampled" (stacks of frame indices, root first, with weights). Every profile is folded
/// into one set of stacks. Time is counted in milliseconds, the EventPipe sampler's interval, so a count reads as
/// about one sample; unitless weights are counts as they are. A thread-time profile is read as its time on CPU
/// (<see cref="OnCpu"/>).
/// </summary>
public static class SpeedscopeReader
{
    public static FoldedStacks Read(byte[] json, ProfileLimits limits)
    {
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(json);
        }
        catch (JsonException e)
        {
            throw new ProfileFormatException($"not speedscope JSON: {e.Message}");
        }
        using (document)
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
                throw new ProfileFormatException("$: expected a speedscope object");
            var frames = Frames(root);
            if (!root.TryGetProperty("profiles", out var profiles) || profiles.ValueKind != JsonValueKind.Array)
                throw new ProfileFormatException("$.profiles: expected an array of profiles");
            var tree = new StackTree(limits);
            var index = 0;
            foreach (var profile in profiles.EnumerateArray())
            {
                var where = $"$.profiles[{index++}]";
                if (profile.ValueKind != JsonValueKind.Object)
                    throw new ProfileFormatException($"{where}: expected an object");
                var scale = Scale(profile, where);
                switch (profile.TryGetProperty("type", out var type) ? type.GetString() : null)
                {
                    case "evented":
                        Evented(profile, where, frames.Count, scale, tree, limits);
                        break;
                    case "sampled":
                        Sampled(profile, where, frames.Count, scale, tree, limits);
                        break;
                    default:
                        throw new ProfileFormatException($"{where}.type: expected \"evented\" or \"sampled\"");
                }
            }
            var builder = new FoldedStacks.Builder(limits);
            tree.Emit(builder, frames, "$.profiles");
            return OnCpu(builder.Build());
        }
    }

    private const string CpuTime = "CPU_TIME";
    private const string OutsideManagedCode = "UNMANAGED_CODE_TIME";

    /// <summary>
    /// BenchmarkDotNet writes thread time (TraceEvent's thread-time computer): every thread's every millisecond, each
    /// stack ending in a pseudo-frame, <c>CPU_TIME</c> when the thread ran managed code and
    /// <c>UNMANAGED_CODE_TIME</c> when it was outside it, which EventPipe cannot tell apart from waiting (a sleep, a
    /// blocked wait, an idle pool thread: nearly all of it). Kept as they are, the waits of however many pool threads
    /// happened to exist drown what the code did. Like the Go and perf profiles, which see running threads only, this
    /// keeps the time on CPU, as the time of the frame that ran, and leaves the rest out. The finalizer thread is left
    /// out too: while it waits for work its time comes out as CPU time of its last stack (seen: 3.3 s "on CPU" in
    /// <c>GC.RunFinalizers()</c> in a run of 7.9 s), on one side and not the other as a collection happens to run it.
    /// </summary>
    private static FoldedStacks OnCpu(FoldedStacks stacks)
    {
        if (!stacks.Stacks.Keys.Any(s => s.EndsWith(CpuTime, StringComparison.Ordinal)))
            return stacks;
        var onCpu = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var (stack, count) in stacks.Stacks)
        {
            if (
                stack == OutsideManagedCode
                || stack.EndsWith(";" + OutsideManagedCode, StringComparison.Ordinal)
                || FoldedStacks.Frames(stack).Any(IsFinalizerThread)
            )
                continue;
            var frames = FoldedStacks.Frames(stack).ToList();
            if (frames.Count > 0 && frames[^1] == CpuTime)
                frames.RemoveAt(frames.Count - 1);
            while (frames.Count > 1 && IsGcPoll(frames[^1]))
                frames.RemoveAt(frames.Count - 1);
            if (IsIdlePoolWorker(frames))
                continue;
            var own = string.Join(';', frames);
            onCpu[own] = onCpu.GetValueOrDefault(own) + count;
        }
        return new FoldedStacks(onCpu);
    }

    /// <summary>
    /// The runtime's sampler reads a running thread's stack once the thread stops at a GC poll, so the samples of a
    /// busy loop end in <c>Thread.PollGC</c> and its worker: that time is the caller's (seen: a third of a Rivulet
    /// run's samples in <c>PollGCWorker</c>, nearly all of them called from the loop that had become slower).
    /// </summary>
    private static bool IsGcPoll(string frame) =>
        Method(frame) is var m
        && (
            m.StartsWith("System.Threading.Thread.PollGC(", StringComparison.Ordinal)
            || m.StartsWith("System.Threading.Thread.<PollGC>", StringComparison.Ordinal)
        );

    /// <summary>
    /// A thread-pool worker with no work: below its thread's root frame only the pool's wait for a work item, a semaphore
    /// that spins before it blocks. It runs none of the benchmark's code, and how much of it a side has depends on how
    /// many pool threads happened to exist and how often work ran out (seen: the largest "grown" frame of a run that had
    /// become slower in its own loop), so it would outrank the code that changed.
    /// </summary>
    private static bool IsIdlePoolWorker(IReadOnlyList<string> frames)
    {
        // TraceEvent puts the process and its thread group above each thread's root frame.
        var below = frames.SkipWhile(f => !IsThreadRoot(f)).Skip(1).ToList();
        return below.Any(f => Method(f).StartsWith(PoolWorker, StringComparison.Ordinal))
            && below.All(f => PoolWait.Any(w => Method(f).StartsWith(w, StringComparison.Ordinal)));
    }

    private const string PoolWorker = "System.Threading.PortableThreadPool+WorkerThread.WorkerThreadStart(";

    private static readonly string[] PoolWait =
    [
        "System.Threading.Thread.StartCallback(",
        PoolWorker,
        "System.Threading.LowLevelLifoSemaphore.",
        "System.Threading.LowLevelSpinWaiter.",
    ];

    /// <summary>The method of "Module!Method", as TraceEvent names managed frames.</summary>
    private static string Method(string frame) => frame[(frame.IndexOf('!') + 1)..];

    private static bool IsThreadRoot(string frame) => frame.StartsWith("Thread (", StringComparison.Ordinal);

    /// <summary>TraceEvent names each thread's root frame "Thread (id)", the runtime's name for it after.</summary>
    private static bool IsFinalizerThread(string frame) =>
        IsThreadRoot(frame) && frame.Contains("(.NET Finalizer", StringComparison.Ordinal);

    private static List<string> Frames(JsonElement root)
    {
        if (
            !root.TryGetProperty("shared", out var shared)
            || shared.ValueKind != JsonValueKind.Object
            || !shared.TryGetProperty("frames", out var frames)
            || frames.ValueKind != JsonValueKind.Array
        )
            throw new ProfileFormatException("$.shared.frames: expected an array of frames");
        var names = new List<string>(frames.GetArrayLength());
        var i = 0;
        foreach (var frame in frames.EnumerateArray())
        {
            if (
                frame.ValueKind != JsonValueKind.Object
                || !frame.TryGetProperty("name", out var name)
                || name.ValueKind != JsonValueKind.String
            )
                throw new ProfileFormatException($"$.shared.frames[{i}]: expected an object with a string \"name\"");
            names.Add(ProfileInput.FrameName(name.GetString()!));
            i++;
        }
        return names;
    }

    /// <summary>Factor from the profile's unit to the counts stored: milliseconds for time, 1 otherwise.</summary>
    private static double Scale(JsonElement profile, string where) =>
        (profile.TryGetProperty("unit", out var unit) ? unit.GetString() : "none") switch
        {
            "nanoseconds" => 1e-6,
            "microseconds" => 1e-3,
            "milliseconds" => 1,
            "seconds" => 1e3,
            "none" or "bytes" => 1,
            var other => throw new ProfileFormatException($"{where}.unit: unknown unit \"{other}\""),
        };

    private static void Evented(
        JsonElement profile,
        string where,
        int frameCount,
        double scale,
        StackTree tree,
        ProfileLimits limits
    )
    {
        var events = Array(profile, "events", where);
        var open = new Stack<(int Node, int Frame)>();
        double? last = null;
        var i = 0;
        foreach (var e in events.EnumerateArray())
        {
            var at = $"{where}.events[{i++}]";
            var frame = FrameIndex(e, "frame", at, frameCount);
            var time =
                e.TryGetProperty("at", out var t) && t.TryGetDouble(out var d) && double.IsFinite(d)
                    ? d
                    : throw new ProfileFormatException($"{at}.at: expected a number");
            if (last is { } previous)
            {
                if (time < previous)
                    throw new ProfileFormatException($"{at}: time {time} is before the previous event's {previous}");
                if (open.Count > 0)
                    tree.Add(open.Peek().Node, (time - previous) * scale);
            }
            last = time;
            switch (e.TryGetProperty("type", out var type) ? type.GetString() : null)
            {
                case "O":
                    if (open.Count >= limits.MaxDepth)
                        throw new ProfileFormatException($"{at}: stack is deeper than {limits.MaxDepth} frames");
                    open.Push((tree.Child(open.Count == 0 ? StackTree.Root : open.Peek().Node, frame, at), frame));
                    break;
                case "C":
                    if (open.Count == 0 || open.Peek().Frame != frame)
                        throw new ProfileFormatException(
                            $"{at}: closes frame {frame}, which is not the innermost open frame"
                        );
                    open.Pop();
                    break;
                default:
                    throw new ProfileFormatException($"{at}.type: expected \"O\" or \"C\"");
            }
        }
    }

    private static void Sampled(
        JsonElement profile,
        string where,
        int frameCount,
        double scale,
        StackTree tree,
        ProfileLimits limits
    )
    {
        var samples = Array(profile, "samples", where);
        JsonElement? weights = profile.TryGetProperty("weights", out var w) ? w : null;
        if (
            weights is { } ws
            && (ws.ValueKind != JsonValueKind.Array || ws.GetArrayLength() != samples.GetArrayLength())
        )
            throw new ProfileFormatException(
                $"{where}.weights: expected one weight per sample ({samples.GetArrayLength()})"
            );
        var i = 0;
        foreach (var sample in samples.EnumerateArray())
        {
            var at = $"{where}.samples[{i}]";
            if (sample.ValueKind != JsonValueKind.Array)
                throw new ProfileFormatException($"{at}: expected an array of frame indices");
            if (sample.GetArrayLength() > limits.MaxDepth)
                throw new ProfileFormatException(
                    $"{at}: stack is {sample.GetArrayLength()} frames deep (at most {limits.MaxDepth})"
                );
            var weight = 1.0;
            if (weights is { } all && !(all[i].TryGetDouble(out weight) && double.IsFinite(weight) && weight >= 0))
                throw new ProfileFormatException($"{where}.weights[{i}]: expected a number of at least 0");
            var node = StackTree.Root;
            var depth = 0;
            foreach (var frame in sample.EnumerateArray())
                node = tree.Child(node, Index(frame, $"{at}[{depth++}]", frameCount), at);
            if (node != StackTree.Root)
                tree.Add(node, weights is null ? 1 : weight * scale);
            i++;
        }
    }

    private static JsonElement Array(JsonElement profile, string name, string where) =>
        profile.TryGetProperty(name, out var array) && array.ValueKind == JsonValueKind.Array
            ? array
            : throw new ProfileFormatException($"{where}.{name}: expected an array");

    private static int FrameIndex(JsonElement e, string name, string at, int frameCount) =>
        e.ValueKind == JsonValueKind.Object && e.TryGetProperty(name, out var value)
            ? Index(value, $"{at}.{name}", frameCount)
            : throw new ProfileFormatException($"{at}: expected an event with a \"{name}\"");

    private static int Index(JsonElement value, string at, int frameCount) =>
        value.ValueKind == JsonValueKind.Number && value.TryGetInt32(out var index) && index >= 0 && index < frameCount
            ? index
            : throw new ProfileFormatException($"{at}: expected a frame index from 0 to {frameCount - 1}");
}
