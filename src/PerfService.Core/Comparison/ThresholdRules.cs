using PerfService.Core.Results;

namespace PerfService.Core.Comparison;

/// <summary>
/// A project's relative threshold (0.10 = 10%) for the benchmarks whose key matches <see cref="Pattern"/>, optionally
/// only for one measure (e.g. "time", "allocated"). The pattern is a glob on the benchmark key: <c>*</c> matches any
/// run of characters, <c>?</c> exactly one, ignoring case (see <see cref="Glob"/>); a pattern without either is an
/// exact key.
/// </summary>
public sealed record ThresholdRule(string Pattern, string? Measure, double Threshold)
{
    public bool IsExact => !Glob.HasWildcards(Pattern);

    public bool Matches(string key, string measure) =>
        (Measure is null || string.Equals(Measure, measure, StringComparison.OrdinalIgnoreCase))
        && (IsExact ? string.Equals(Pattern, key, StringComparison.OrdinalIgnoreCase) : Glob.IsMatch(Pattern, key));
}

/// <summary>
/// Picks the override for a benchmark × measure: the most specific matching rule wins. Specificity, in order: an exact
/// key beats any glob; among globs the longer pattern wins; then a rule restricted to the measure beats an unrestricted
/// one. Remaining ties (two globs of equal length) go to the pattern with more literal characters, then ordinally, so
/// the choice never depends on the order the rules were stored in.
/// </summary>
public sealed class ThresholdRules
{
    private readonly ThresholdRule[] _rules;

    public ThresholdRules(IEnumerable<ThresholdRule> rules) => _rules = rules.Order(Specificity.Instance).ToArray();

    public static ThresholdRules None { get; } = new([]);

    public int Count => _rules.Length;

    public ThresholdRule? Find(string key, string measure)
    {
        foreach (var rule in _rules)
            if (rule.Matches(key, measure))
                return rule;
        return null;
    }

    /// <summary>The override to put in <see cref="ComparisonInput.Threshold"/>, or null to let the noise
    /// decide.</summary>
    public double? ThresholdFor(string key, string measure) => Find(key, measure)?.Threshold;

    /// <summary>Most specific first.</summary>
    private sealed class Specificity : IComparer<ThresholdRule>
    {
        public static readonly Specificity Instance = new();

        public int Compare(ThresholdRule? x, ThresholdRule? y)
        {
            if (ReferenceEquals(x, y))
                return 0;
            if (x is null)
                return 1;
            if (y is null)
                return -1;
            var c = y.IsExact.CompareTo(x.IsExact);
            if (c == 0 && !x.IsExact)
                c = y.Pattern.Length.CompareTo(x.Pattern.Length);
            if (c == 0)
                c = (y.Measure is not null).CompareTo(x.Measure is not null);
            if (c == 0)
                c = Glob.LiteralCount(y.Pattern).CompareTo(Glob.LiteralCount(x.Pattern));
            if (c == 0)
                c = string.CompareOrdinal(x.Pattern, y.Pattern);
            if (c == 0)
                c = string.CompareOrdinal(x.Measure, y.Measure);
            return c;
        }
    }
}
