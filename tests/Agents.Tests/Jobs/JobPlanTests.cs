using PerfService.Agents.Jobs;
using PerfService.Core.Contracts;
using PerfService.Core.Suites;

namespace PerfService.Agents.Tests.Jobs;

public sealed class JobPlanTests
{
    private static JobAssignment Job(string? baseCommit = null, int rounds = 1, params string[] suites) =>
        new(9, 2, "demo", "/repo", "head1", baseCommit, "feature", baseCommit is null ? null : 12, suites, "m1-pro", rounds, 60, false);

    private static readonly SuiteManifest _manifest = SuiteManifest.Parse("""
        { "suites": [ { "name": "rivulet", "harness": "bdn", "folder": "a", "args": ["--job", "long"], "quickArgs": ["--job", "dry"] },
                      { "name": "fibers", "harness": "criterion", "folder": "b" } ] }
        """);

    [Fact]
    public void Push_job_runs_each_suite_once_on_head()
    {
        var steps = JobPlan.Build(Job(), JobPlan.SelectSuites(Job(), _manifest));
        Assert.Equal(["rivulet head 1", "fibers head 1"], steps.Select(s => $"{s.Suite} {s.Role.Name()} {s.Round}"));
        Assert.Equal("suite 2/2 fibers (head, round 1/1)", steps[1].Progress);
        Assert.Equal("job-9-fibers-head-1", steps[1].IdempotencyKey(9));
    }

    [Fact]
    public void Pull_request_interleaves_base_and_head_per_round_in_abba_order_one_suite_at_a_time()
    {
        var job = Job("base1", 2, "fibers", "rivulet");
        var steps = JobPlan.Build(job, JobPlan.SelectSuites(job, _manifest));
        Assert.Equal(
            ["fibers base base1 1", "fibers head head1 1", "fibers head head1 2", "fibers base base1 2",
             "rivulet base base1 1", "rivulet head head1 1", "rivulet head head1 2", "rivulet base base1 2"],
            steps.Select(s => $"{s.Suite} {s.Role.Name()} {s.Commit} {s.Round}"));
        Assert.Equal("suite 2/2 rivulet (head, round 1/2)", steps[5].Progress);
    }

    [Fact]
    public void Unknown_suite_fails_with_the_declared_ones() =>
        Assert.Contains("no suite nope (it has: rivulet, fibers)",
            Assert.Throws<JobFailedException>(() => JobPlan.SelectSuites(Job(null, 1, "nope"), _manifest)).Message);

    [Fact]
    public void Quick_uses_quick_args_when_declared()
    {
        Assert.Equal(["--job", "dry"], JobPlan.Args(_manifest.Suites[0], quick: true));
        Assert.Equal(["--job", "long"], JobPlan.Args(_manifest.Suites[0], quick: false));
        Assert.Empty(JobPlan.Args(_manifest.Suites[1], quick: true));
    }

    [Fact]
    public void A_job_may_repeat_half_its_planned_harness_runs_and_at_least_one()
    {
        var job = Job("base1", 2, "fibers", "rivulet");
        Assert.Equal(4, JobPlan.DisturbedRepeats(JobPlan.Build(job, JobPlan.SelectSuites(job, _manifest))));
        var single = Job(null, 1, "fibers");
        Assert.Equal(1, JobPlan.DisturbedRepeats(JobPlan.Build(single, JobPlan.SelectSuites(single, _manifest))));

        var budget = new RepeatBudget(2);
        Assert.Equal([true, true, false, false], new[] { budget.TryTake(), budget.TryTake(), budget.TryTake(), budget.TryTake() });
        Assert.Equal(0, budget.Left);
    }

    [Fact]
    public void A_lasting_disturbance_gives_up_the_jobs_remaining_repeats()
    {
        var budget = new RepeatBudget(4);
        Assert.True(budget.TryTake());
        budget.GiveUp();
        Assert.Equal(0, budget.Left);
        Assert.False(budget.TryTake());
    }
}
