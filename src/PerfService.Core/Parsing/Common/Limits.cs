namespace PerfService.Core.Parsing.Common;

/// <summary>Bounds that keep hostile or broken input from producing absurd series or exhausting the stack.</summary>
internal static class Limits
{
    /// <summary>JSON nesting accepted. Real harness output nests at most ~8 levels; anything deeper is an attack or
    /// junk.</summary>
    public const int MaxJsonDepth = 64;

    /// <summary>
    /// Largest magnitude accepted for any value. 1e18 ns is 31 years per operation and 1e18 B/s is an exabyte per
    /// second: beyond this a number is a unit mix-up or garbage, and storing it would wreck every chart and statistic.
    /// </summary>
    public const double MaxAbsValue = 1e18;
}
