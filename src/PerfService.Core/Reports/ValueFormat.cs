using System.Globalization;

namespace PerfService.Core.Reports;

/// <summary>Numbers for people: time scaled to ns/µs/ms/s, sizes to B/KB/MB/GB (1 KB = 1024 B as BenchmarkDotNet shows
/// them).</summary>
public static class ValueFormat
{
    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    private static readonly (string Name, double Scale)[] s_time = [("ns", 1), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)];
    private static readonly (string Name, double Scale)[] s_size =
    [
        ("B", 1),
        ("KB", 1024),
        ("MB", 1024 * 1024),
        ("GB", 1024.0 * 1024 * 1024),
    ];

    private static readonly Dictionary<string, (string Dimension, double Scale)> s_units = new(
        StringComparer.OrdinalIgnoreCase
    )
    {
        ["ns"] = ("time", 1),
        ["us"] = ("time", 1e3),
        ["µs"] = ("time", 1e3),
        ["μs"] = ("time", 1e3),
        ["ms"] = ("time", 1e6),
        ["s"] = ("time", 1e9),
        ["b"] = ("size", 1),
        ["bytes"] = ("size", 1),
        ["kb"] = ("size", 1024),
        ["kib"] = ("size", 1024),
        ["mb"] = ("size", 1024 * 1024),
        ["mib"] = ("size", 1024 * 1024),
        ["gb"] = ("size", 1024.0 * 1024 * 1024),
        ["gib"] = ("size", 1024.0 * 1024 * 1024),
    };

    public static string Value(double? value, string unit)
    {
        if (value is not { } v || !double.IsFinite(v))
            return "—";
        var slash = unit.IndexOf('/');
        var numerator = slash < 0 ? unit : unit[..slash];
        var rest = slash < 0 ? "" : MarkdownText.Escape(unit[slash..], 40);
        if (s_units.TryGetValue(numerator.Trim(), out var known))
        {
            var ladder = known.Dimension == "time" ? s_time : s_size;
            var baseValue = v * known.Scale;
            var step = ladder[0];
            foreach (var candidate in ladder)
                if (Math.Abs(baseValue) >= candidate.Scale)
                    step = candidate;
            // Bytes are whole; a time keeps its decimals so that a column of times reads alike.
            return $"{Number(baseValue / step.Scale, whole: step.Name == "B")} {step.Name}{rest}";
        }
        var escaped = MarkdownText.Escape(unit, 40);
        return escaped.Length == 0 ? Number(v) : $"{Number(v)} {escaped}";
    }

    /// <summary>Four significant figures or so; whole numbers (counts) stay whole unless <paramref name="whole"/> is
    /// false.</summary>
    public static string Number(double v, bool whole = true)
    {
        var a = Math.Abs(v);
        var format =
            a >= 1000 || (whole && v == Math.Round(v) && a < 1e15) ? "#,0"
            : a >= 100 ? "0.0"
            : a >= 10 ? "0.00"
            : "0.000";
        return v.ToString(format, s_invariant);
    }

    public static string Change(double? change) =>
        change is { } c && double.IsFinite(c) ? (c * 100).ToString("+0.0;-0.0;0.0", s_invariant) + "%" : "—";

    public static string Interval(double? lower, double? upper) =>
        lower is null || upper is null ? "—" : $"{Change(lower)} to {Change(upper)}";

    /// <summary>
    /// The margins a verdict used: "±5%" when one margin served both, otherwise "±5% / ±28%": no change within the
    /// first (the project's threshold), a regression or improvement only beyond the second (widened by the noise).
    /// </summary>
    public static string Margin(double? noChange, double? regression)
    {
        // A verdict from before the margin was kept separately used its threshold for both.
        if (noChange is not { } e || !(e > 0) || !double.IsFinite(e))
            (e, regression) = (regression ?? double.NaN, null);
        if (!(e > 0) || !double.IsFinite(e))
            return "—";
        var first = "±" + (e * 100).ToString("0.#", s_invariant) + "%";
        return regression is { } t && double.IsFinite(t) && Math.Abs(t - e) > 1e-9
            ? $"{first} / ±{(t * 100).ToString("0.#", s_invariant)}%"
            : first;
    }

    /// <summary>Said under a table whose margins differ: what the two figures of <see cref="Margin"/> are.</summary>
    public const string MarginLegend =
        "Margin: no change only within the first figure (the project's threshold); a regression or improvement must clear the second, "
        + "twice the series' run-to-run noise on the base branch where that is larger.";

    public static bool HasTwoMargins(double? noChange, double? regression) =>
        Margin(noChange, regression).Contains('/', StringComparison.Ordinal);

    public static string PValue(double? p) =>
        p switch
        {
            null => "—",
            < 0.001 => "< 0.001",
            { } v => v.ToString("0.000", s_invariant),
        };
}
