using System.Globalization;

namespace PerfService.Core.Parsing.Common;

/// <summary>Culture-proof number and time-unit handling for the text formats.</summary>
internal static class Numbers
{
    /// <summary>Parses a plain decimal/exponent number the way harnesses print them, never with the machine's
    /// culture.</summary>
    public static bool TryParse(string token, out double value) =>
        double.TryParse(token, NumberStyles.Float, CultureInfo.InvariantCulture, out value);

    /// <summary>libtest prints <c>13,967,756.30</c>: the commas are thousands separators, never decimal
    /// marks.</summary>
    public static bool TryParseGrouped(string token, out double value)
    {
        value = 0;
        if (token.Length == 0 || token[0] == ',' || token[^1] == ',' || token.Contains(",,", StringComparison.Ordinal))
            return false;
        return TryParse(token.Replace(",", "", StringComparison.Ordinal), out value);
    }

    /// <summary>Nanoseconds per unit for the time units harnesses print; null when the unit is not a time.</summary>
    public static double? NanosecondsPer(string unit) =>
        unit switch
        {
            "ps" => 1e-3,
            "ns" => 1,
            "us" or "µs" or "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            _ => null,
        };

    /// <summary>Go's and Rust's convention (and ours): a unit "per second" is a throughput, so higher is
    /// better.</summary>
    public static bool IsPerSecond(string unit) => unit.EndsWith("/s", StringComparison.Ordinal);
}
