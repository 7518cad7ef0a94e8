namespace PerfService.Core.Targets;

/// <summary>
/// Converts a target's value into the unit results are stored in. Time: ns, us/µs, ms, s. Size: B, KB, MB, GB as
/// BenchmarkDotNet reports them (1 KB = 1024 B; KiB/MiB/GiB are accepted too). Counts and rates may carry an SI
/// prefix: "M jobs/s" against "jobs/s" is ×10⁶, "K ops/ms" against "ops/s" is ×10⁶, and a bare "M" means millions of
/// the result's own unit. A rate is numerator/denominator, each converted on its own. Identical units
/// (case-insensitive, spaces ignored) never need a table.
/// </summary>
public static class Units
{
    private static readonly Dictionary<string, (string Dimension, double Scale)> s_known = new(StringComparer.Ordinal)
    {
        ["ns"] = ("time", 1),
        ["us"] = ("time", 1e3),
        ["µs"] = ("time", 1e3),
        ["μs"] = ("time", 1e3),
        ["ms"] = ("time", 1e6),
        ["s"] = ("time", 1e9),
        ["sec"] = ("time", 1e9),
        ["b"] = ("size", 1),
        ["byte"] = ("size", 1),
        ["bytes"] = ("size", 1),
        ["kb"] = ("size", 1024),
        ["kib"] = ("size", 1024),
        ["mb"] = ("size", 1024 * 1024),
        ["mib"] = ("size", 1024 * 1024),
        ["gb"] = ("size", 1024.0 * 1024 * 1024),
        ["gib"] = ("size", 1024.0 * 1024 * 1024),
    };

    /// <summary>Converts <paramref name="value"/> from <paramref name="from"/> into <paramref name="to"/>; false when
    /// they are incompatible.</summary>
    public static bool TryConvert(double value, string from, string to, out double converted)
    {
        converted = value;
        var f = Normalise(from);
        var t = Normalise(to);
        if (string.Equals(f, t, StringComparison.OrdinalIgnoreCase))
            return true;
        // A bare SI prefix means "of whatever the other side counts": "> 10 M" against jobs/s.
        if (BarePrefix(f) is { } pf)
        {
            converted = value * pf;
            return true;
        }
        if (BarePrefix(t) is { } pt)
        {
            converted = value / pt;
            return true;
        }
        // A unit can be read more than one way ("Gets" is a word, or G + "ets"); take the first reading of each side
        // that shares a dimension, plain readings before prefixed ones.
        foreach (var a in Readings(f))
        foreach (var b in Readings(t))
            if (a.Dimension == b.Dimension)
            {
                converted = value * a.Scale / b.Scale;
                return true;
            }
        return false;
    }

    private static double? BarePrefix(string unit) =>
        unit switch
        {
            "k" or "K" => 1e3,
            "M" => 1e6,
            "G" => 1e9,
            _ => null,
        };

    private static string Normalise(string unit) => unit.Replace(" ", "", StringComparison.Ordinal).Trim();

    private static IEnumerable<(string Dimension, double Scale)> Readings(string unit)
    {
        var slash = unit.IndexOf('/');
        if (slash < 0)
        {
            foreach (var r in Simple(unit))
                yield return r;
            yield break;
        }
        foreach (var num in Simple(unit[..slash]))
        foreach (var den in Simple(unit[(slash + 1)..]))
            yield return (num.Dimension + "/" + den.Dimension, num.Scale / den.Scale);
    }

    private static IEnumerable<(string Dimension, double Scale)> Simple(string unit)
    {
        if (s_known.TryGetValue(unit, out var k) || s_known.TryGetValue(unit.ToLowerInvariant(), out k))
        {
            yield return k;
            yield break;
        }
        yield return (unit.ToLowerInvariant(), 1);
        if (unit.Length == 0)
            yield break;
        var prefix = unit[0] switch
        {
            'k' or 'K' => 1e3,
            'M' => 1e6,
            'G' => 1e9,
            _ => 0,
        };
        if (prefix > 0 && unit.Length > 1)
            yield return (unit[1..].ToLowerInvariant(), prefix); // "Mjobs" (spaces removed)
    }
}
