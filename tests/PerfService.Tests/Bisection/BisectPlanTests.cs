using PerfService.Core.Bisection;
using static PerfService.Core.Bisection.BisectCommitState;

namespace PerfService.Tests.Bisection;

public class BisectPlanTests
{
    [Theory]
    [InlineData(0, 0)]
    [InlineData(1, 0)]
    [InlineData(2, 2)]
    [InlineData(3, 3)]
    [InlineData(4, 3)]
    [InlineData(8, 4)]
    [InlineData(9, 5)]
    [InlineData(20, 6)]
    public void The_cap_is_the_halvings_a_range_needs_plus_one(int rangeCommits, int cap) =>
        Assert.Equal(cap, BisectPlan.Cap(rangeCommits));

    [Theory]
    [InlineData(1, 0)]
    [InlineData(2, 0)]
    [InlineData(3, 1)]
    [InlineData(7, 3)]
    [InlineData(8, 3)]
    public void The_middle_commit_goes_first(int between, int expected) =>
        Assert.Equal(expected, BisectPlan.Next(Enumerable.Repeat(Untested, between).ToList(), 0, 10));

    [Fact]
    public void A_tried_middle_gives_way_to_its_nearest_untested_neighbour_older_first()
    {
        Assert.Equal(2, BisectPlan.Next([Untested, Untested, Untested, Tried, Untested, Untested, Untested], 1, 10));
        Assert.Equal(4, BisectPlan.Next([Tried, Tried, Tried, Tried, Untested, Untested, Untested], 1, 10));
    }

    [Fact]
    public void Nothing_is_chosen_while_a_job_is_pending_when_all_were_tried_or_when_the_cap_is_spent()
    {
        Assert.Null(BisectPlan.Next([Untested, Pending, Untested], 0, 10));
        Assert.Null(BisectPlan.Next([Tried, Tried], 2, 10));
        Assert.Null(BisectPlan.Next([], 0, 10));
        Assert.Null(BisectPlan.Next([Untested, Untested, Untested], 3, 3));
    }

    [Theory]
    [InlineData(2)]
    [InlineData(5)]
    [InlineData(8)]
    [InlineData(20)]
    public void Bisecting_finds_every_culprit_within_the_cap(int rangeCommits)
    {
        // Commits 1..n of the range (0 is its tested "from" end, n its tested "to" end); the culprit is at c.
        for (var culprit = 1; culprit <= rangeCommits; culprit++)
        {
            var (from, to, jobs) = (0, rangeCommits, 0);
            var tried = new HashSet<int>();
            while (true)
            {
                var between = Enumerable.Range(from + 1, to - from - 1).ToList();
                var next = BisectPlan.Next(between.Select(c => tried.Contains(c) ? Tried : Untested).ToList(), jobs, BisectPlan.Cap(rangeCommits));
                if (next is null) break;
                var commit = between[next.Value];
                tried.Add(commit);
                jobs++;
                if (commit >= culprit) to = commit; else from = commit;
            }
            Assert.Equal((culprit - 1, culprit), (from, to));
            Assert.True(jobs < BisectPlan.Cap(rangeCommits), $"culprit {culprit} of {rangeCommits} took {jobs} jobs");
        }
    }
}
