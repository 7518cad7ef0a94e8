namespace PerfService.Core.Profiles;

/// <summary>Reads a profile in its native format into <see cref="FoldedStacks"/>.</summary>
public static class ProfileReader
{
    public static FoldedStacks Read(Stream stream, ProfileFormat format, ProfileLimits limits)
    {
        switch (format)
        {
            case ProfileFormat.Folded:
                using (var reader = new StreamReader(stream, leaveOpen: true))
                    return FoldedStacks.Parse(reader, limits);
            default:
                throw new ProfileFormatException($"{format.Name()} profiles cannot be read by this version");
        }
    }
}
