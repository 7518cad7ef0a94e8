namespace PerfService.Core.Profiles;

/// <summary>Reads a profile in its native format into <see cref="FoldedStacks"/>.</summary>
public static class ProfileReader
{
    public static FoldedStacks Read(Stream stream, ProfileFormat format, ProfileLimits limits)
    {
        switch (format)
        {
            case ProfileFormat.Folded:
                using (var reader = new StreamReader(new MemoryStream(ProfileInput.Read(stream, limits))))
                    return FoldedStacks.Parse(reader, limits);
            case ProfileFormat.Speedscope:
                return SpeedscopeReader.Read(ProfileInput.Read(stream, limits), limits);
            case ProfileFormat.Pprof:
                return PprofReader.Read(ProfileInput.Read(stream, limits), limits);
            default:
                throw new ProfileFormatException($"{format.Name()} profiles cannot be read by this version");
        }
    }
}
