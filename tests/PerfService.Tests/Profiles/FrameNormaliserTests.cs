using PerfService.Core.Profiles;

namespace PerfService.Tests.Profiles;

public class FrameNormaliserTests
{
    [Theory]
    [InlineData("System.Collections.Generic.List`1[System.Int32].Add(!0) [OptimizedTier1]", "System.Collections.Generic.List.Add(!0)")]
    [InlineData("Demo.Json.Parser.Parse() [QuickJitted]", "Demo.Json.Parser.Parse()")]
    [InlineData("Rivulet.RetryPolicy+<>c__DisplayClass3_0.<Execute>b__0_1()", "Rivulet.RetryPolicy+<>c__DisplayClass.<Execute>b__()")]
    [InlineData("Rivulet.Worker.<RunAsync>d__12.MoveNext()", "Rivulet.Worker.<RunAsync>d__.MoveNext()")]
    [InlineData("main.(*Cache).Get.func2.1", "main.(*Cache).Get.func")]
    [InlineData("slices.SortFunc[go.shape.[]uint8,go.shape.int]", "slices.SortFunc")]
    [InlineData("rivulet::retry::execute::h0123456789abcdef", "rivulet::retry::execute")]
    [InlineData("rivulet::retry::run::{closure#0}", "rivulet::retry::run::{closure}")]
    [InlineData("std::rt::lang_start::{{closure}}", "std::rt::lang_start::{{closure}}")]
    [InlineData("memcpy+0x1a/0x80", "memcpy")]
    [InlineData("[unknown] 0x00007f3a2b1c4d5e", "[unknown] 0x?")]
    [InlineData("[kernel.kallsyms]", "[kernel.kallsyms]")]
    [InlineData("Process64 dotnet (25179) Args: /work/bin/Rivulet.Benchmarks-ShortRun-1.dll --anonymousPipes 128 129", "Process dotnet")]
    [InlineData("Thread (25189) (.NET ThreadPool)", "Thread (.NET ThreadPool)")]
    [InlineData("Thread (25190)", "Thread")]
    public void Drops_what_changes_between_builds_and_keeps_the_code(string frame, string expected) =>
        Assert.Equal(expected, FrameNormaliser.Normalise(frame));

    [Fact]
    public void Stacks_that_differ_only_by_build_noise_merge()
    {
        var stacks = new FoldedStacks(new Dictionary<string, long>
        {
            ["Main;Work() [QuickJitted]"] = 3,
            ["Main;Work() [OptimizedTier1]"] = 7,
        });
        var normalised = FrameNormaliser.Normalise(stacks);
        Assert.Equal(10, normalised.Stacks["Main;Work()"]);
        Assert.Single(normalised.Stacks);
    }
}
