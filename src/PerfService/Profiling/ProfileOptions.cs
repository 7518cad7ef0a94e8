using System.ComponentModel.DataAnnotations;
using PerfService.Core.Profiles;

namespace PerfService.Profiling;

/// <summary>Bounds on a posted CPU profile (section <c>Profiles</c>): it is read like every upload, so a hostile or
/// broken one is refused with a reason before it costs memory or storage.</summary>
public sealed class ProfileOptions
{
    public const string Section = "Profiles";

    /// <summary>Whether a pull request judged with regressions, and a change-point slowdown or a broken target on the
    /// default branch, queue a profiling job for them (one extra run a side of each regressed benchmark, on the agent
    /// that measured it).</summary>
    public bool ProfileRegressions { get; set; } = true;

    /// <summary>Largest native profile file; a whole request may be a few KB more (the metadata part).</summary>
    [Range(1024, 1L << 31)]
    public long MaxUploadBytes { get; set; } = 16 * 1024 * 1024;

    /// <summary>Distinct stacks after folding.</summary>
    [Range(1, 10_000_000)]
    public int MaxStacks { get; set; } = 200_000;

    [Range(1, 100_000)]
    public int MaxDepth { get; set; } = 1_024;

    [Range(1, 1_000_000)]
    public int MaxFrameLength { get; set; } = 2_048;

    /// <summary>Largest folded form once compressed: a pprof's string table can expand into far more text than it
    /// was posted as, and the folded form is what pages read.</summary>
    [Range(1024, 1L << 31)]
    public long MaxFoldedBytes { get; set; } = 8 * 1024 * 1024;

    public ProfileLimits Limits =>
        new()
        {
            MaxBytes = MaxUploadBytes,
            MaxStacks = MaxStacks,
            MaxDepth = MaxDepth,
            MaxFrameLength = MaxFrameLength,
        };
}
