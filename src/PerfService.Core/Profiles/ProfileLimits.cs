namespace PerfService.Core.Profiles;

/// <summary>Bounds on a profile posted by an agent: it is parsed like every upload, so a hostile or broken one is
/// refused with a reason instead of exhausting memory.</summary>
public sealed record ProfileLimits
{
    public long MaxBytes { get; init; } = 64L * 1024 * 1024;

    /// <summary>Distinct stacks after folding.</summary>
    public int MaxStacks { get; init; } = 200_000;
    public int MaxDepth { get; init; } = 1_024;
    public int MaxFrameLength { get; init; } = 2_048;

    public static ProfileLimits Default { get; } = new();
}

/// <summary>A profile that cannot be read: says what and where, like <see cref="Parsing.ParseException"/>.</summary>
public sealed class ProfileFormatException(string message) : Exception(message);
