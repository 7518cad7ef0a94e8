namespace PerfService.Core.Results;

/// <summary>
/// Glob over benchmark keys, as targets and threshold overrides use it: <c>*</c> matches any run of characters,
/// <c>?</c> exactly one, everything else literally (keys hold brackets and parentheses, <c>Sum(N=10) [Short]</c>),
/// ignoring case. Iterative with one backtracking point (the last star), so a hostile pattern costs at most
/// O(pattern × key), never the exponential time of a naive recursion or a backtracking regex.
/// </summary>
public static class Glob
{
    public static bool HasWildcards(string pattern) => pattern.AsSpan().IndexOfAny('*', '?') >= 0;

    public static int LiteralCount(string pattern) => pattern.Length - pattern.Count(c => c is '*' or '?');

    public static bool IsMatch(string pattern, string text)
    {
        int p = 0,
            t = 0,
            star = -1,
            resume = 0;
        while (t < text.Length)
        {
            if (p < pattern.Length && pattern[p] == '*')
            {
                star = p++;
                resume = t;
            }
            else if (
                p < pattern.Length
                && (pattern[p] == '?' || char.ToUpperInvariant(pattern[p]) == char.ToUpperInvariant(text[t]))
            )
            {
                p++;
                t++;
            }
            // Let the last star swallow one more character and retry from there.
            else if (star >= 0)
            {
                p = star + 1;
                t = ++resume;
            }
            else
                return false;
        }
        while (p < pattern.Length && pattern[p] == '*')
            p++;
        return p == pattern.Length;
    }
}
