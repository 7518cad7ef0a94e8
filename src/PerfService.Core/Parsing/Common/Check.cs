using System.Globalization;

namespace PerfService.Core.Parsing.Common;

/// <summary>Value validation shared by every parser, so all formats reject the same bad numbers the same way.</summary>
internal static class Check
{
    /// <summary>A finite value of sane magnitude; <paramref name="nonNegative"/> for times, sizes and counts.</summary>
    public static double Value(double value, string file, string location, string what, bool nonNegative)
    {
        if (double.IsNaN(value) || double.IsInfinity(value))
            throw new ParseException(file, location, $"{what} is {Show(value)}; expected a finite number");
        if (Math.Abs(value) > Limits.MaxAbsValue)
            throw new ParseException(
                file,
                location,
                $"{what} is {Show(value)}, which is absurdly large (limit {Limits.MaxAbsValue:0e0})"
            );
        if (nonNegative && value < 0)
            throw new ParseException(file, location, $"{what} is {Show(value)}; expected a value ≥ 0");
        return value;
    }

    /// <summary>The same check for a value read at a JSON node, whose path is spelled only for the error.</summary>
    public static double Value(double value, in JsonAtPath at, string what, bool nonNegative) =>
        IsSane(value) && (!nonNegative || value >= 0) ? value : Value(value, at.File, at.Path, what, nonNegative);

    /// <summary>A benchmark or metric name: a series without a name could never be found again.</summary>
    /// <summary>The name held by a JSON string node, whose path is spelled only for the error.</summary>
    public static string Name(in JsonAtPath node) =>
        node.AsString() is { } name && !string.IsNullOrWhiteSpace(name)
            ? name.Trim()
            : Name(null, node.File, node.Path);

    public static string Name(string? name, string file, string? location)
    {
        if (string.IsNullOrWhiteSpace(name))
            throw new ParseException(file, location, "the benchmark name is empty; expected a name");
        return name.Trim();
    }

    /// <summary>A derived value (a throughput, a per-iteration time) must obey the same bounds as one read from a
    /// file.</summary>
    public static bool IsSane(double value) => double.IsFinite(value) && Math.Abs(value) <= Limits.MaxAbsValue;

    public static string Show(double value) => value.ToString("R", CultureInfo.InvariantCulture);
}
