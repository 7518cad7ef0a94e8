namespace PerfService.Core.Targets;

/// <summary>Glob over benchmark keys: <c>*</c> matches any run of characters, everything else literally, case-insensitive.</summary>
public static class Glob
{
    public static bool IsMatch(string pattern, string text)
    {
        // Classic greedy matcher with backtracking to the last star: linear in practice, no regex compilation.
        int p = 0, t = 0, star = -1, mark = 0;
        while (t < text.Length)
        {
            if (p < pattern.Length && pattern[p] == '*') { star = p++; mark = t; }
            else if (p < pattern.Length && char.ToUpperInvariant(pattern[p]) == char.ToUpperInvariant(text[t])) { p++; t++; }
            else if (star >= 0) { p = star + 1; t = ++mark; }
            else return false;
        }
        while (p < pattern.Length && pattern[p] == '*') p++;
        return p == pattern.Length;
    }
}
