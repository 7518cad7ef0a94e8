namespace PerfService.Core.Profiles;

/// <summary>The native formats profiles arrive in, one per profiler the agents use: BenchmarkDotNet's EventPipe
/// profiler writes speedscope JSON, <c>go test -cpuprofile</c> writes pprof, and <c>perf record</c> output is folded
/// on the agent (where the symbols are) into folded stacks.</summary>
public enum ProfileFormat
{
    Folded,
    Speedscope,
    Pprof,
}

public static class ProfileFormats
{
    public static string Name(this ProfileFormat format) =>
        format switch
        {
            ProfileFormat.Folded => "folded",
            ProfileFormat.Speedscope => "speedscope",
            ProfileFormat.Pprof => "pprof",
            _ => throw new ArgumentOutOfRangeException(nameof(format)),
        };

    public static bool TryParse(string? name, out ProfileFormat format)
    {
        foreach (var candidate in Enum.GetValues<ProfileFormat>())
        {
            if (string.Equals(candidate.Name(), name, StringComparison.OrdinalIgnoreCase))
            {
                format = candidate;
                return true;
            }
        }
        format = default;
        return false;
    }
}
