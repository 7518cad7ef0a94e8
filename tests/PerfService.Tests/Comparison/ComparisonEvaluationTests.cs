using PerfService.CompareEval;
using Xunit.Abstractions;

namespace PerfService.Tests.Comparison;

public class ComparisonEvaluationTests(ITestOutputHelper output)
{
    [Fact]
    public void The_generator_is_deterministic_and_labelled()
    {
        var settings = new EvaluationSettings { PullRequestsPerCell = 1, Within = [0.01], RunToRun = [0.02] };
        var a = SyntheticPullRequests.Generate(settings).SelectMany(p => p).ToList();
        var b = SyntheticPullRequests.Generate(settings).SelectMany(p => p).ToList();
        Assert.Equal(a.Select(c => c.Input.HeadSamples.Sum()), b.Select(c => c.Input.HeadSamples.Sum()));
        Assert.All(a, c => Assert.Equal(3, c.Input.BaseRounds!.Count));
        Assert.All(a, c => Assert.Equal(15, c.Input.HeadRounds![0].Count));
        Assert.All(a, c => Assert.Equal(20, c.Input.History!.Count));
        Assert.Contains(a, c => c.TrueShift == 0);
        Assert.Contains(a, c => c.TrueShift != 0);
    }

    [Fact]
    public void Verdicts_meet_the_goals_with_three_rounds_a_side_and_the_base_branch_history()
    {
        var evaluation = ComparisonEvaluator.Run(new EvaluationSettings { PullRequestsPerCell = 10, Seed = 7 });
        output.WriteLine(evaluation.ToString());
        Assert.True(evaluation.FalseRate <= ComparisonEvaluator.MaxFalseOverall, evaluation.ToString());
        Assert.True(evaluation.WorstCellFalseRate <= ComparisonEvaluator.MaxFalsePerCell, evaluation.ToString());
        Assert.True(evaluation.Found10Quiet >= ComparisonEvaluator.MinFound10, evaluation.ToString());
        Assert.Equal(0, evaluation.WrongDirection);
        Assert.True(evaluation.MeetsGoals);
    }

    [Fact]
    public void Without_history_verdicts_meet_the_goals_by_borrowing_spread_from_the_runs_other_benchmarks()
    {
        // The CLI's case: three rounds a side give each benchmark 4 degrees of freedom of run-to-run spread; the
        // moderated prior from the run's other benchmarks (VariancePrior) brings the power back without false verdicts.
        var evaluation = ComparisonEvaluator.Run(new EvaluationSettings { PullRequestsPerCell = 10, Seed = 8, HistoryRuns = 0 });
        output.WriteLine(evaluation.ToString());
        Assert.True(evaluation.FalseRate <= ComparisonEvaluator.MaxFalseOverall, evaluation.ToString());
        Assert.True(evaluation.WorstCellFalseRate <= ComparisonEvaluator.MaxFalsePerCell, evaluation.ToString());
        Assert.Equal(0, evaluation.WrongDirection);
        Assert.True(evaluation.Found10Quiet >= ComparisonEvaluator.MinFound10, evaluation.ToString());
    }
}
