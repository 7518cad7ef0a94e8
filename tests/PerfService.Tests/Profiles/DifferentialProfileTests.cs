using PerfService.Core.Profiles;

namespace PerfService.Tests.Profiles;

public class DifferentialProfileTests
{
    private static FoldedStacks Folded(string text) => FoldedStacks.Parse(new StringReader(text), ProfileLimits.Default);

    [Fact]
    public void Compares_sides_by_share_of_their_own_samples()
    {
        // Base: Execute holds 10% of 2,000 samples; head: 28% of 1,000. The sides' totals differ by half.
        var diff = DifferentialProfile.Build(
            Folded("Main;Run;Rivulet.RetryPolicy.Execute 200\nMain;Run;Parse 1800\n"),
            Folded("Main;Run;Rivulet.RetryPolicy.Execute [OptimizedTier1] 280\nMain;Run;Parse 720\n"));

        var top = diff.Grown[0];
        Assert.Equal("Rivulet.RetryPolicy.Execute", top.Frame);
        Assert.Equal(0.10, top.BaseSelfShare, 6);
        Assert.Equal(0.28, top.HeadSelfShare, 6);
        Assert.Equal("`Rivulet.RetryPolicy.Execute` +18% of samples (10% → 28%)", diff.Summary().First());
        Assert.Equal("Parse", diff.Shrunk[0].Frame);
        Assert.False(diff.TooFewSamples);
    }

    [Fact]
    public void The_tree_carries_total_and_self_per_path_for_each_side()
    {
        var diff = DifferentialProfile.Build(Folded("a;b 30\na;b;c 70\n"), Folded("a;b 10\na;d 10\n"));

        Assert.Equal((100, 20), (diff.Root.Base, diff.Root.Head));
        var a = Assert.Single(diff.Root.Children);
        Assert.Equal(["b", "d"], a.Children.Select(c => c.Name));
        var b = a.Children[0];
        Assert.Equal((100L, 10L, 30L, 10L), (b.Base, b.Head, b.BaseSelf, b.HeadSelf));
        var c = Assert.Single(b.Children);
        Assert.Equal((70L, 0L), (c.Base, c.Head));
        Assert.Equal((0L, 10L), (a.Children[1].Base, a.Children[1].Head)); // only on head: still in the tree
    }

    [Fact]
    public void Self_time_of_a_frame_is_summed_over_every_path_it_appears_on()
    {
        var diff = DifferentialProfile.Build(Folded("a;hot 10\nb;hot 10\nc 80\n"), Folded("a;hot 30\nb;hot 30\nc 40\n"));
        var hot = diff.Grown.Single(g => g.Frame == "hot");
        Assert.Equal(0.4, hot.Growth, 6);
    }

    [Fact]
    public void Paths_below_the_minimum_share_on_both_sides_are_left_out_but_still_counted()
    {
        var diff = DifferentialProfile.Build(Folded("a;tiny 1\na 9999\n"), Folded("a 5000\n"));
        var a = Assert.Single(diff.Root.Children);
        Assert.Empty(a.Children);
        Assert.Equal(10_000, a.Base);
    }

    [Fact]
    public void A_side_with_fewer_samples_than_the_minimum_is_too_few_to_read()
    {
        var enough = $"a {DifferentialProfile.MinSamples}\n";
        Assert.False(DifferentialProfile.Build(Folded(enough), Folded(enough)).TooFewSamples);
        Assert.True(DifferentialProfile.Build(Folded(enough), Folded($"a {DifferentialProfile.MinSamples - 1}\n")).TooFewSamples);
        var empty = DifferentialProfile.Build(Folded(""), Folded(enough));
        Assert.True(empty.TooFewSamples);
        Assert.Equal(0, empty.BaseSamples);
    }
}
