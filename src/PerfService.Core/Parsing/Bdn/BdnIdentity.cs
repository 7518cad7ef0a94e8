using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing.Bdn;

/// <summary>How a BenchmarkDotNet benchmark case becomes Name + Parameters + Job, and how its enum-coded fields
/// read.</summary>
internal static class BdnIdentity
{
    /// <summary><c>Namespace.Type.Method</c>. Built from the parts, not from FullName, because FullName carries the
    /// parameters (<c>Sha256(N: 1000)</c>) which belong in <see cref="Parameters"/>.</summary>
    public static string Name(string? ns, string type, string method) =>
        string.IsNullOrEmpty(ns) ? $"{type}.{method}" : $"{ns}.{type}.{method}";

    /// <summary>
    /// BDN prints [Params]/[Arguments] as <c>N=10&amp;Mode=Fast</c>. A value may itself contain '&amp;' (strings are
    /// printed raw), so a piece without '=' is glued back onto the previous value instead of becoming a bogus key.
    /// </summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Parameters(string? text)
    {
        if (string.IsNullOrEmpty(text))
            return [];
        var result = new List<KeyValuePair<string, string>>();
        foreach (var piece in text.Split('&'))
        {
            var eq = piece.IndexOf('=');
            if (eq > 0)
                result.Add(new(piece[..eq], piece[(eq + 1)..]));
            else if (result.Count > 0)
                result[^1] = new(result[^1].Key, result[^1].Value + "&" + piece);
            else
                result.Add(new(piece, ""));
        }
        return result;
    }

    /// <summary>
    /// The job part of <c>DisplayInfo</c> ("IndexOfAnyBenchmarks.IndexOfAny_String: .NET 8.0(Runtime=.NET 8.0)") so
    /// that
    /// the .NET 8 and .NET 9 runs of one method are two series. Named jobs give their id (".NET 8.0", "ShortRun",
    /// "DefaultJob"). BDN's auto-generated ids ("Job-RIPEJG") are random per run, so for those the characteristics
    /// ("Server=True, IterationCount=3") are used instead: stable across runs and still distinct per job.
    /// </summary>
    public static string? Job(string? displayInfo, string type, string methodTitle, bool hasParameters)
    {
        if (string.IsNullOrEmpty(displayInfo))
            return null;
        var prefix = $"{type}.{methodTitle}: ";
        var start = displayInfo.StartsWith(prefix, StringComparison.Ordinal)
            ? prefix.Length
            : displayInfo.IndexOf(": ", StringComparison.Ordinal) + 2;
        if (start < 2 || start >= displayInfo.Length)
            return null;
        var job = displayInfo[start..];
        if (hasParameters)
        {
            // "...: Job-RIPEJG(Server=True, IterationCount=3) [N=1000]": the bracket is the parameter display.
            var bracket = job.IndexOf(" [", StringComparison.Ordinal);
            if (bracket >= 0)
                job = job[..bracket];
        }
        job = job.Trim();
        var paren = job.IndexOf('(');
        var id = paren > 0 ? job[..paren] : job;
        if (!IsGeneratedId(id))
            return id.Length > 0 ? id : null;
        var close = job.LastIndexOf(')');
        return paren > 0 && close > paren + 1 ? job[(paren + 1)..close] : id;
    }

    private static bool IsGeneratedId(string id)
    {
        if (id.Length != 10 || !id.StartsWith("Job-", StringComparison.Ordinal))
            return false;
        foreach (var c in id.AsSpan(4))
            if (!char.IsAsciiLetterUpper(c) && !char.IsAsciiDigit(c))
                return false;
        return true;
    }

    // ConfidenceInterval.Level is written as an enum ordinal. The enum gained L92 after 0.9.x, shifting the ordinals;
    // the old schema is recognisable by its "Error" field (later renamed "StandardError"). Verified on the fixtures:
    // Margin/StandardError = 1.96 for legacy ordinal 6 (95 %), and t(0.9995, N-1) for modern ordinal 12 (99.9 %).
    private static readonly double[] _legacyLevels =
    [
        0.50,
        0.70,
        0.75,
        0.80,
        0.85,
        0.90,
        0.95,
        0.96,
        0.97,
        0.98,
        0.99,
        0.999,
        0.9999,
    ];
    private static readonly double[] _levels =
    [
        0.50,
        0.70,
        0.75,
        0.80,
        0.85,
        0.90,
        0.92,
        0.95,
        0.96,
        0.97,
        0.98,
        0.99,
        0.999,
        0.9999,
    ];

    public static double? ConfidenceLevel(JsonAtPath interval)
    {
        var level = interval.Get("Level");
        if (level is not { IsNumber: true } node)
            return null;
        var value = node.AsNumber(nonNegative: true);
        if (value > 0 && value < 1)
            return value; // a future writer printing the level itself
        if (value != Math.Floor(value))
            return null;
        var table = interval.Has("Error") && !interval.Has("StandardError") ? _legacyLevels : _levels;
        return value < table.Length ? table[(int)value] : null;
    }

    /// <summary>Why a benchmark has no statistics, as precisely as the export allows (the last stage it
    /// reached).</summary>
    public static string FailureReason(JsonAtPath benchmark)
    {
        string? last = null;
        if (benchmark.Get("Measurements") is { IsArray: true } measurements)
            foreach (var m in measurements.Items())
                if (m.IsObject)
                    last =
                        $"{m.Get("IterationMode")?.Element.ToString()} {m.Get("IterationStage")?.Element.ToString()}".Trim();
        var reached = string.IsNullOrEmpty(last)
            ? "no iteration was measured"
            : $"the last measured stage was '{last}'";
        return $"BenchmarkDotNet recorded no statistics for this benchmark (it failed or was not run; {reached}); see the BenchmarkDotNet log";
    }
}
