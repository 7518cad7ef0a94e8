using System.Text;
using System.Text.RegularExpressions;

namespace PerfService.Agents.Profiling;

/// <summary>How a stored benchmark name becomes the selector its harness runs exactly that benchmark with. Names come
/// from pull requests: every metacharacter is quoted, and each selector is one argument (never a shell word).</summary>
public static partial class BenchmarkPatterns
{
    /// <summary>go test: the stored name is "pkg.BenchmarkX/sub/…", with the import path go test printed when it
    /// printed one (it may hold '/' and '.': the function starts at the first ".Benchmark"). -bench splits its regex at
    /// '/' and matches each part against one level of sub-benchmark.</summary>
    public static (string? Package, string Bench) Go(string stored)
    {
        var dot = stored.StartsWith("Benchmark", StringComparison.Ordinal)
            ? -1
            : stored.IndexOf(".Benchmark", StringComparison.Ordinal);
        var package = dot <= 0 ? null : stored[..dot];
        var name = stored[(dot + 1)..];
        return (package, string.Join('/', name.Split('/').Select(level => "^" + Quote(level, GoMeta) + "$")));
    }

    /// <summary>criterion's filter is a regex (Rust's regex crate) over "group/function/value".</summary>
    public static string Criterion(string stored) => "^" + Quote(stored, RustMeta) + "$";

    /// <summary>BenchmarkDotNet's --filter is a glob over "Namespace.Type.Method" (with "(Param: value)" when the
    /// stored name carries its parameters); '*' and '?' are its only wildcards and cannot be quoted, so they match
    /// themselves among others. The stored name's " [Job]" (the suite's measuring job, Core's BenchmarkKey) is not
    /// part of what the filter sees, and the profiler runs its own job.</summary>
    public static string Bdn(string stored) => BdnJob().Replace(stored, "");

    [GeneratedRegex(@" \[[^\[\]]*\]$")]
    private static partial Regex BdnJob();

    // Go's regexp.QuoteMeta set; RE2 refuses escapes of other characters (a space, for one).
    private const string GoMeta = @"\.+*?()|[]{}^$";

    // regex::escape's set.
    private const string RustMeta = @"\.+*?()|[]{}^$#&-~";

    private static string Quote(string text, string meta)
    {
        var quoted = new StringBuilder(text.Length + 8);
        foreach (var c in text)
        {
            if (meta.Contains(c))
                quoted.Append('\\');
            quoted.Append(c);
        }
        return quoted.ToString();
    }
}
