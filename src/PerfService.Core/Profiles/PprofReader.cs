using System.Globalization;
using Google.Protobuf;
using Perftools.Profiles;

namespace PerfService.Core.Profiles;

/// <summary>
/// pprof's profile.proto (gzipped, as <c>go test -cpuprofile</c> writes it), decoded by Google.Protobuf from the
/// official schema. Each sample's locations run leaf first, and a location's lines run from the innermost inlined
/// function out; both are turned root first. The count is the "samples" value when the profile has one (Go's CPU
/// profiles do), else the default or last sample type, as pprof itself picks.
/// </summary>
public static class PprofReader
{
    public static FoldedStacks Read(byte[] data, ProfileLimits limits)
    {
        Profile profile;
        try
        {
            profile = Profile.Parser.ParseFrom(data);
        }
        catch (InvalidProtocolBufferException e)
        {
            throw new ProfileFormatException($"not a pprof profile: {e.Message}");
        }
        var strings = profile.StringTable;
        string Text(long index, string where) =>
            index >= 0 && index < strings.Count
                ? strings[(int)index]
                : throw new ProfileFormatException(
                    $"{where}: string {index} is outside the string table ({strings.Count} strings)"
                );

        var valueIndex = ValueIndex(profile, Text);
        var functions = new Dictionary<ulong, string>();
        foreach (var f in profile.Function)
            functions[f.Id] = ProfileInput.FrameName(Text(f.Name, $"function {f.Id}"));
        var locations = new Dictionary<ulong, Location>();
        foreach (var l in profile.Location)
            locations[l.Id] = l;

        var builder = new FoldedStacks.Builder(limits);
        var frames = new List<string>();
        for (var i = 0; i < profile.Sample.Count; i++)
        {
            var sample = profile.Sample[i];
            var where = $"sample {i}";
            if (sample.Value.Count != profile.SampleType.Count)
                throw new ProfileFormatException(
                    $"{where}: {sample.Value.Count} values, but the profile has {profile.SampleType.Count} sample types"
                );
            if (sample.LocationId.Count > limits.MaxDepth)
                throw new ProfileFormatException(
                    $"{where}: stack is {sample.LocationId.Count} locations deep (at most {limits.MaxDepth})"
                );
            frames.Clear();
            foreach (var id in sample.LocationId)
            {
                if (!locations.TryGetValue(id, out var location))
                    throw new ProfileFormatException($"{where}: location {id} is not in the profile");
                if (location.Line.Count == 0)
                    frames.Add("0x" + location.Address.ToString("x", CultureInfo.InvariantCulture));
                foreach (var line in location.Line)
                {
                    frames.Add(
                        functions.TryGetValue(line.FunctionId, out var name)
                            ? name
                            : throw new ProfileFormatException(
                                $"location {id}: function {line.FunctionId} is not in the profile"
                            )
                    );
                }
            }
            frames.Reverse();
            builder.Add(frames, sample.Value[valueIndex], where);
        }
        return builder.Build();
    }

    private static int ValueIndex(Profile profile, Func<long, string, string> text)
    {
        if (profile.SampleType.Count == 0)
            throw new ProfileFormatException("the profile has no sample types");
        var types = profile.SampleType.Select((t, i) => text(t.Type, $"sample type {i}")).ToList();
        var samples = types.IndexOf("samples");
        if (samples >= 0)
            return samples;
        var preferred =
            profile.DefaultSampleType == 0 ? -1 : types.IndexOf(text(profile.DefaultSampleType, "default sample type"));
        return preferred >= 0 ? preferred : types.Count - 1;
    }
}
