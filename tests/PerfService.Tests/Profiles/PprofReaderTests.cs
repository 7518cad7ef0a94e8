using System.IO.Compression;
using Google.Protobuf;
using PerfService.Core.Profiles;
using Perftools.Profiles;
using static PerfService.Tests.Profiles.ProfileFixtures;

namespace PerfService.Tests.Profiles;

public sealed class PprofReaderTests
{
    private const string GoFixture = "gobench-read-simple.pprof";

    [Fact]
    public void Reads_go_tests_cpu_profile_with_the_counts_go_tool_pprof_shows()
    {
        var folded = Read(Bytes(GoFixture), ProfileFormat.Pprof);

        // `go tool pprof -top` on the same file: 240ms at 10ms a sample; matches (inlined) 30ms flat, scanLocked
        // 20ms flat and 90ms cumulative.
        Assert.Equal(24, folded.TotalSamples);
        Assert.Equal(3, Self(folded, "perfbench.(*QueryItem).matches"));
        Assert.Equal(2, Self(folded, "perfbench.(*Store).scanLocked"));
        Assert.Equal(9, Total(folded, "perfbench.(*Store).scanLocked"));
        // The benchmark's own function is on the stacks, root first: under the test runner, above the code it calls.
        var benchmark = FoldedStacks.Frames(folded.Stacks.Keys.First(s => s.Contains("perfbench.BenchmarkRead;", StringComparison.Ordinal))).ToList();
        Assert.True(benchmark.IndexOf("testing.(*B).runN") < benchmark.IndexOf("perfbench.BenchmarkRead"));
    }

    [Fact]
    public void Reads_an_uncompressed_profile_as_well()
    {
        using var gzip = new GZipStream(new MemoryStream(Bytes(GoFixture)), CompressionMode.Decompress);
        using var raw = new MemoryStream();
        gzip.CopyTo(raw);

        Assert.Equal(24, Read(raw.ToArray(), ProfileFormat.Pprof).TotalSamples);
    }

    [Fact]
    public void Refuses_a_truncated_profile()
    {
        var bytes = Bytes(GoFixture);

        // GZipStream hands over what it could unzip; the protobuf decoder then finds a message cut short.
        var e = Assert.Throws<ProfileFormatException>(() => Read(bytes[..(bytes.Length / 2)], ProfileFormat.Pprof));
        Assert.StartsWith("not a pprof profile: While parsing a protocol message, the input ended unexpectedly", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Refuses_a_gzip_bomb_at_the_size_limit()
    {
        var bomb = GzipOfZeros(64L << 20);
        Assert.True(bomb.Length < 200_000);

        var e = Assert.Throws<ProfileFormatException>(() => Read(bomb, ProfileFormat.Pprof, new ProfileLimits { MaxBytes = 8 << 20 }));
        Assert.Equal($"the profile unzips to more than {8 << 20} bytes", e.Message);
    }

    [Fact]
    public void Refuses_bytes_that_are_not_a_profile()
    {
        var e = Assert.Throws<ProfileFormatException>(() => Read("{\"not\": \"protobuf\"}"u8.ToArray(), ProfileFormat.Pprof));
        Assert.StartsWith("not a pprof profile", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Refuses_a_sample_of_an_unknown_location_and_a_name_outside_the_string_table()
    {
        var missing = Profile(("f", 1));
        missing.Sample.Add(new Sample { LocationId = { 99 }, Value = { 1 } });
        Assert.Equal("sample 0: location 99 is not in the profile", Assert.Throws<ProfileFormatException>(() => Read(missing.ToByteArray(), ProfileFormat.Pprof)).Message);

        var outside = Profile(("f", 1));
        outside.Function[0].Name = 500;
        Assert.Equal("function 1: string 500 is outside the string table (4 strings)",
            Assert.Throws<ProfileFormatException>(() => Read(outside.ToByteArray(), ProfileFormat.Pprof)).Message);
    }

    [Fact]
    public void Refuses_a_stack_deeper_than_the_limit_and_more_stacks_than_the_limit()
    {
        var deep = Profile(("f", 1));
        deep.Sample.Add(new Sample { LocationId = { Enumerable.Repeat(1UL, 2_000) }, Value = { 1 } });
        Assert.Equal("sample 0: stack is 2000 locations deep (at most 1024)",
            Assert.Throws<ProfileFormatException>(() => Read(deep.ToByteArray(), ProfileFormat.Pprof)).Message);

        var e = Assert.Throws<ProfileFormatException>(() => Read(Bytes(GoFixture), ProfileFormat.Pprof, new ProfileLimits { MaxStacks = 3 }));
        Assert.EndsWith("more than 3 distinct stacks", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Keeps_a_frame_name_of_markup_as_text_in_one_frame()
    {
        var profile = Profile((Script + ";x\ny", 1));
        profile.Sample.Add(new Sample { LocationId = { 1 }, Value = { 7 } });

        var folded = Read(profile.ToByteArray(), ProfileFormat.Pprof);

        var (stack, count) = Assert.Single(folded.Stacks);
        Assert.Equal((Script + ":x y", 7L), (stack, count));
    }

    /// <summary>A one-sample-type profile with one location a function.</summary>
    private static Profile Profile(params (string Name, ulong Id)[] functions)
    {
        var profile = new Profile { StringTable = { "", "samples", "count" } };
        profile.SampleType.Add(new Perftools.Profiles.ValueType { Type = 1, Unit = 2 });
        foreach (var (name, id) in functions)
        {
            profile.StringTable.Add(name);
            profile.Function.Add(new Function { Id = id, Name = profile.StringTable.Count - 1 });
            profile.Location.Add(new Location { Id = id, Line = { new Line { FunctionId = id } } });
        }
        return profile;
    }
}
