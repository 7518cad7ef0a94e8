using Microsoft.Extensions.Options;
using Microsoft.Extensions.Time.Testing;
using PerfService.Analysis;
using PerfService.Background;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>
/// How the consumer yields to uploads in a process with both roles, on the service's own clock: no pause without
/// uploads (the consumer drains at full speed when nothing is ingested), a growing pause and one detector thread
/// while uploads are slow, and none again once the slow uploads have left the window. The pace itself is
/// <c>AnalysisPaceTests</c>.
/// </summary>
public class AnalysisYieldTests
{
    private readonly FakeTimeProvider _clock = new();

    // Not listening to the process's upload metric: other tests upload beside these.
    private AnalysisYield Yield() => new(Options.Create(new BackgroundOptions()), _clock, listen: false);

    [Fact]
    public void Without_uploads_analysis_never_waits()
    {
        using var yielding = Yield();
        for (var i = 0; i < 5; i++) Assert.True(yielding.WaitAsync(CancellationToken.None).IsCompletedSuccessfully);
        Assert.False(yielding.Current.Yielding);
        Assert.Equal(2, yielding.Threads(2, 2));
    }

    [Fact]
    public async Task Slow_uploads_make_analysis_wait_and_feed_on_one_thread_until_they_leave_the_window()
    {
        using var yielding = Yield();
        for (var i = 0; i < 10; i++) yielding.Uploaded(TimeSpan.FromMilliseconds(900));

        var wait = yielding.WaitAsync(CancellationToken.None);
        Assert.False(wait.IsCompleted);
        Assert.Equal((TimeSpan.FromMilliseconds(250), true), (yielding.Current.Pause, yielding.Current.Yielding));
        Assert.Equal(1, yielding.Threads(2, 2));
        _clock.Advance(TimeSpan.FromMilliseconds(250));
        await wait;

        // Five seconds on, the slow uploads are out of the window: the pause halves to nothing at once (125 ms is
        // under the step) and the detector has its threads back.
        _clock.Advance(TimeSpan.FromSeconds(5));
        Assert.True(yielding.WaitAsync(CancellationToken.None).IsCompletedSuccessfully);
        Assert.False(yielding.Current.Yielding);
        Assert.Equal(2, yielding.Threads(2, 2));
    }

    [Fact]
    public async Task Behind_analysis_takes_every_core_it_may_even_while_uploads_are_slow()
    {
        using var yielding = Yield();
        for (var i = 0; i < 10; i++) yielding.Uploaded(TimeSpan.FromMilliseconds(900));
        var behind = new BackgroundOptions().YieldUntilWaitingRuns;

        // A full batch: that many runs were waiting. No pause, and the detector's threads for a backlog.
        Assert.True(yielding.WaitAsync(CancellationToken.None, lastBatchRuns: behind).IsCompletedSuccessfully);
        Assert.True(yielding.Behind);
        Assert.False(yielding.Current.Yielding);
        Assert.Equal(4, yielding.Threads(1, 4));

        // A short batch while uploads are still slow: caught up, so it yields again on one thread.
        var wait = yielding.WaitAsync(CancellationToken.None, lastBatchRuns: behind - 1);
        Assert.False(yielding.Behind);
        Assert.Equal(1, yielding.Threads(1, 4));
        _clock.Advance(TimeSpan.FromMilliseconds(250));
        await wait;
    }

    // Requests share a process with both roles: analysis keeps to one detector thread there unless told otherwise.
    [Theory]
    [InlineData("both", null, 1)]
    [InlineData("web", null, 1)]
    [InlineData("background", null, -1)]
    [InlineData("both", 3, 3)]
    public void The_detector_threads_default_to_one_beside_requests_and_every_core_without(
        string roles,
        int? configured,
        int expected
    ) =>
        Assert.Equal(
            expected < 0 ? Environment.ProcessorCount : expected,
            new BackgroundOptions { Roles = roles, AnalysisThreads = configured }.AnalysisThreadCount
        );

    // Behind, the detector takes every core unless the threads were set.
    [Theory]
    [InlineData("both", null, -1)]
    [InlineData("background", null, -1)]
    [InlineData("both", 1, 1)]
    public void Behind_the_detector_threads_default_to_every_core(string roles, int? configured, int expected) =>
        Assert.Equal(
            expected < 0 ? Environment.ProcessorCount : expected,
            new BackgroundOptions { Roles = roles, AnalysisThreads = configured }.AnalysisThreadCountBehind
        );

    [Fact]
    public void The_service_records_its_own_upload_times_through_the_ingest_metric()
    {
        // Listening, as in the service; enough slow uploads that other tests' uploads meanwhile cannot hide them.
        using var yielding = new AnalysisYield(Options.Create(new BackgroundOptions()), _clock);
        for (var i = 0; i < 200; i++) PerfService.Hosting.Telemetry.PerfTelemetry.RunIngested("yield-test", 1, TimeSpan.FromSeconds(1));
        Assert.False(yielding.WaitAsync(CancellationToken.None).IsCompleted);
        Assert.True(yielding.Current.Yielding);
    }
}
