using PerfService.Analysis;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>Synthetic series for feeds without a database: one point an hour from 2026-01-01, commits c000, c001, …,
/// result ids from 1000 and run ids from <paramref name="firstRun"/>.</summary>
internal static class HourlySeries
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

    public static SeriesPoint[] Of(int count, Func<int, double> value, long firstRun) =>
        Enumerable
            .Range(0, count)
            .Select(i => new SeriesPoint(1000 + i, firstRun + i, $"c{i:000}", Start.AddHours(i), value(i)))
            .ToArray();
}
