using PerfService.Core.Profiles;
using static PerfService.Tests.Profiles.ProfileFixtures;

namespace PerfService.Tests.Profiles;

public sealed class PerfScriptFolderTests
{
    private static FoldedStacks Fold(string text, ProfileLimits? limits = null) =>
        PerfScriptFolder.Fold(new StringReader(text), limits ?? ProfileLimits.Default);

    [Fact]
    public void Folds_perf_script_of_a_criterion_benchmark_with_the_counts_of_its_samples()
    {
        using var gzip = new System.IO.Compression.GZipStream(new MemoryStream(Bytes("criterion-raw-fiber-switch.perf-script.txt.gz")),
            System.IO.Compression.CompressionMode.Decompress);

        var folded = PerfScriptFolder.Fold(new StreamReader(gzip), ProfileLimits.Default);

        // Counted in the text itself (PROVENANCE.md): 496 samples, 148 of cargo starting the bench and 348 of the
        // bench, 346 of them under its main and 150 in the benchmark's closure itself.
        Assert.Equal(496, folded.TotalSamples);
        Assert.Equal(148, folded.Stacks.Where(s => s.Key.StartsWith("cargo;", StringComparison.Ordinal)).Sum(s => s.Value));
        Assert.Equal(348, folded.Stacks.Where(s => s.Key.StartsWith("fiber_switch-48;", StringComparison.Ordinal)).Sum(s => s.Value));
        Assert.Equal(346, Total(folded, "fiber_switch::main"));
        Assert.Equal(150, Self(folded, "fiber_switch::context_switch::{{closure}}"));
        Assert.DoesNotContain(folded.Stacks.Keys, s => s.Contains("+0x", StringComparison.Ordinal));
    }

    [Fact]
    public void Folds_samples_root_first_under_the_command_without_offsets()
    {
        const string text = """
            bench worker 4242/4243 100.000001:    1001001 cpu-clock:
            	           c2c83 fib::step+0x3 (/work/target/release/bench)
            	           b811d criterion::Bencher<M>::iter+0x8d (/work/target/release/bench)
            	           29d00 main+0x10 (/work/target/release/bench)

            bench worker 4242/4243 100.001001:    1001001 cpu-clock:
            	           c2c83 fib::step+0x9 (/work/target/release/bench)
            	           b811d criterion::Bencher<M>::iter+0x8d (/work/target/release/bench)
            	           29d00 main+0x10 (/work/target/release/bench)

            bench worker 4242/4243 100.002001:    1001001 cpu-clock:
            	           7f0011 [unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)
            	               0 [unknown] ([unknown])
            """;

        var folded = Fold(text);

        Assert.Equal(new Dictionary<string, long>
        {
            ["bench worker;main;criterion::Bencher<M>::iter;fib::step"] = 2,
            ["bench worker;[unknown];[libc.so.6]"] = 1,
        }, folded.Stacks);
    }

    [Fact]
    public void Keeps_a_symbol_of_markup_as_text_in_one_frame()
    {
        var text = $"bench 1 1.0: 1 cpu-clock:\n\t 10 {Script};x+0x1 (/bin/bench)\n";

        Assert.Equal(["bench", Script + ":x"], FoldedStacks.Frames(Assert.Single(Fold(text).Stacks).Key));
    }

    [Fact]
    public void Refuses_a_stack_deeper_than_the_limit_naming_the_line()
    {
        var text = "bench 1 1.0: 1 cpu-clock:\n" + string.Concat(Enumerable.Repeat("\t 10 f+0x1 (/bin/bench)\n", 30));

        var e = Assert.Throws<ProfileFormatException>(() => Fold(text, new ProfileLimits { MaxDepth = 20 }));

        Assert.Equal("line 22: stack is deeper than 20 frames", e.Message);
    }

    [Fact]
    public void Refuses_a_frame_outside_a_sample() =>
        Assert.Equal("line 1: a stack frame outside a sample",
            Assert.Throws<ProfileFormatException>(() => Fold("\t 10 f+0x1 (/bin/bench)\n")).Message);
}
