using static PerfService.Core.Contracts.CommitId;

namespace PerfService.Core.Comparison;

/// <summary>
/// A verdict whose base samples came from the base branch's recent runs instead of interleaved base rounds says so at
/// the end of its reason. History includes run-to-run and machine drift that interleaving cancels, so readers should
/// know which kind of comparison they are looking at; the stored reason is the one place every reader already shows.
/// </summary>
public static class HistoryBaseline
{
    private const string Tag = "; baseline from ";

    /// <summary>e.g. "…; baseline from main history: 5 runs at or before 1a2b3c4d5e".</summary>
    public static string Annotate(string reason, string branch, int runs, string? atOrBefore)
    {
        var which = runs == 1 ? "1 run" : $"{runs} runs";
        var where = atOrBefore is null
            ? $"the latest {which} (base commit not known)"
            : $"{which} at or before {Short(atOrBefore)}";
        return $"{reason}{Tag}{branch} history: {where}";
    }

    public static bool IsAnnotated(string? reason) => reason?.Contains(Tag, StringComparison.Ordinal) == true;
}
