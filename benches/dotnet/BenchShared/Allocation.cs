namespace PerfBenches.Shared;

/// <summary>
/// <c>PERF_ALLOC=name=bytes[,name=bytes...]</c> makes the named benchmarks allocate that many extra bytes on the
/// managed heap per invocation, inside the measured call, so that a test can plant an allocation regression of known
/// size (what [MemoryDiagnoser] reports as "Allocated" rises by about that much plus an array header). Names match
/// as <see cref="Slowdown"/>'s do; <see cref="Slowdown.Start"/> calls <see cref="Plant"/>, so every benchmark that
/// honours PERF_SLOWDOWN honours this switch too.
/// </summary>
public static class Allocation
{
    public const string Variable = "PERF_ALLOC";

    private static readonly IReadOnlyList<(string Name, double Bytes)> _entries =
        Slowdown.Parse(Environment.GetEnvironmentVariable(Variable));

    /// <summary>Keeps the last planted array reachable, so the JIT cannot drop the allocation.</summary>
    public static object? Sink { get; private set; }

    /// <summary>The extra bytes the switch asks for this benchmark, or 0.</summary>
    public static long Bytes(Type type, string method) =>
        _entries.Count == 0 ? 0 : (long)Slowdown.PercentIn(_entries, type.Name, method);

    public static void Plant(Type type, string method)
    {
        var bytes = Bytes(type, method);
        if (bytes > 0) Sink = new byte[bytes];
    }
}
