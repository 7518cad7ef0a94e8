using System.Text.RegularExpressions;

namespace PerfService.Core.Profiles;

/// <summary>
/// Rewrites a frame name into the part that means the same code on base and head, so that a differential flame graph
/// lines the two sides up: what changes between two builds (or two runs of one build) without the code changing is
/// dropped. Names are otherwise kept as the profiler wrote them.
/// </summary>
public static partial class FrameNormaliser
{
    public static string Normalise(string frame)
    {
        var name = frame.Trim();
        name = TraceEventProcess().Replace(name, "Process ${name}");
        name = TraceEventThread().Replace(name, "Thread${rest}");
        name = JitTier().Replace(name, "");
        name = RustHash().Replace(name, "");
        name = Offset().Replace(name, "");
        name = Address().Replace(name, "0x?");
        name = GenericArity().Replace(name, "");
        name = DotNetLambda().Replace(name, "${kind}__");
        name = DisplayClass().Replace(name, "DisplayClass");
        name = GoClosure().Replace(name, ".func");
        name = RustClosure().Replace(name, "{closure}");
        name = GenericArguments().Replace(name, "${name}");
        return name.Length == 0 ? "?" : name;
    }

    public static FoldedStacks Normalise(FoldedStacks stacks)
    {
        var merged = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var (stack, count) in stacks.Stacks)
        {
            var key = string.Join(';', FoldedStacks.Frames(stack).Select(Normalise));
            merged[key] = merged.GetValueOrDefault(key) + count;
        }
        return new FoldedStacks(merged);
    }

    // TraceEvent's roots of an EventPipe profile name the process by id and command line ("Process64 dotnet (25179)
    // Args: …/Rivulet.Benchmarks-ShortRun-1/… --anonymousPipes 128 129 …") and each thread by id ("Thread (25189)
    // (.NET ThreadPool)"): new on every run, so without this no path of base lines up with head's.
    [GeneratedRegex(@"^Process(32|64) (?<name>\S+) \(\d+\)( Args: .*)?$")]
    private static partial Regex TraceEventProcess();

    [GeneratedRegex(@"^Thread \(\d+\)(?<rest>( \(.*\))?)$")]
    private static partial Regex TraceEventThread();

    // The .NET runtime's code versions: the same method at another tier is the same code.
    [GeneratedRegex(
        @"\s*\[(OptimizedTier1|OptimizedTier1OSR|Optimized|QuickJitted|QuickJittedOSR|Tier0|Tier1|TierUnknown|PreJIT|ReadyToRun|OSR|Instrumented)\]",
        RegexOptions.IgnoreCase
    )]
    private static partial Regex JitTier();

    // Rust's legacy mangling ends each path with a hash of the crate's build.
    [GeneratedRegex(@"::h[0-9a-f]{16}\b")]
    private static partial Regex RustHash();

    // perf's "symbol+0x1a" and "+0x1a/0x80": where in the function the sample landed, not which function.
    [GeneratedRegex(@"\+0x[0-9a-fA-F]+(/0x[0-9a-fA-F]+)?$")]
    private static partial Regex Offset();

    // Unresolved frames are bare addresses, which move with every build and every ASLR slide.
    [GeneratedRegex(@"\b0x[0-9a-fA-F]+\b")]
    private static partial Regex Address();

    // List`1, Dictionary`2: the arity is in the name, the argument types follow in brackets (dropped below).
    [GeneratedRegex(@"`{1,2}\d+")]
    private static partial Regex GenericArity();

    // C#'s compiler-generated names number lambdas, display classes and state machines per method: <Run>b__0_1,
    // <>c__DisplayClass3_0, <RunAsync>d__12. Adding one lambda renumbers the others.
    [GeneratedRegex(@"(?<kind>\b[bdge])__\d+(_\d+)?")]
    private static partial Regex DotNetLambda();

    [GeneratedRegex(@"DisplayClass\d+(_\d+)?")]
    private static partial Regex DisplayClass();

    // Go numbers closures per function: Method.func1, Method.func2.1.
    [GeneratedRegex(@"\.func\d+(\.\d+)*")]
    private static partial Regex GoClosure();

    // Rust v0 demangling numbers closures: {closure#0}.
    [GeneratedRegex(@"\{closure#\d+\}")]
    private static partial Regex RustClosure();

    // Type arguments (List[System.Int32], Go's Map[go.shape.int]): instantiations of one generic line up.
    [GeneratedRegex(@"(?<name>[\w>)])\[[^\[\]]*(\[[^\[\]]*\][^\[\]]*)*\]")]
    private static partial Regex GenericArguments();
}
