using Npgsql;
using PerfService.Comparison;
using PerfService.Data.Entities;

namespace PerfService.IntegrationTests.Comparison;

/// <summary>
/// The tail read places a fed series' window by counting its history, less the points of profile-mismatch runs. If
/// that count were off, every in-order update would look out of order and replay the whole series; if mismatch points
/// reached the window, a different machine's level would read as a step.
/// </summary>
public class SeriesTailTests : IAsyncLifetime
{
    private TestDatabase _db = null!;
    private NpgsqlDataSource _source = null!;
    private long _benchmark, _measure, _branch;
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

    public async Task InitializeAsync()
    {
        _db = await TestDatabase.CreateAsync();
        _source = NpgsqlDataSource.Create(_db.ConnectionString);
        var project = await _db.ScalarAsync<long>("INSERT INTO projects (slug, name, default_branch, is_public, created_at) VALUES ('tails', 'tails', 'main', true, now()) RETURNING id");
        _branch = await _db.ScalarAsync<long>("INSERT INTO branches (project_id, name) VALUES ($1, 'main') RETURNING id", project);
        var suite = await _db.ScalarAsync<long>("INSERT INTO suites (project_id, name, harness) VALUES ($1, 's', 'json') RETURNING id", project);
        _measure = await _db.ScalarAsync<long>("INSERT INTO measures (name, unit, direction) VALUES ('time', 'ns', 'LowerIsBetter') RETURNING id");
        _benchmark = await _db.ScalarAsync<long>("INSERT INTO benchmarks (suite_id, key, name, parameters) VALUES ($1, 'B', 'B', '{}') RETURNING id", suite);
        // 30 commits an hour apart on profile 1; commits 5, 6, 20 and 27 ran on a machine that did not match its profile.
        // Another profile's runs of the same benchmark share the index range's prefix and must not be counted.
        for (var i = 0; i < 30; i++)
        {
            var commit = await _db.ScalarAsync<long>("INSERT INTO commits (project_id, sha, committed_at, first_seen_at) VALUES ($1, $2, $3, now()) RETURNING id",
                project, $"c{i:0000000}", Start.AddHours(i));
            foreach (var profile in new long[] { 1, 2 })
            {
                var mismatch = profile == 1 && i is 5 or 6 or 20 or 27;
                var run = await _db.ScalarAsync<long>("""
                    INSERT INTO runs (project_id, commit_id, branch_id, profile_id, suite_id, role, round, format, profile_mismatch, environment, created_at, result_count, failed_count)
                    VALUES ($1, $2, $3, $4, $5, 'head', 0, 'json', $6, '{}', now(), 1, 0) RETURNING id
                    """, project, commit, _branch, profile, suite, mismatch);
                await _db.ScalarAsync<long>("""
                    INSERT INTO results (run_id, benchmark_id, measure_id, profile_id, branch_id, series_at, value, median, sample_count)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $7, 0) RETURNING id
                    """, run, _benchmark, _measure, profile, _branch, Start.AddHours(i), mismatch ? 1300.0 : 1000.0 + i);
            }
        }
    }

    [Theory]
    [InlineData(false, 21 - 3)] // points 0..20 less the mismatches 5, 6 and 20
    [InlineData(true, 21)]
    public async Task The_window_starts_where_the_fed_points_end_and_holds_no_mismatched_point(bool includeMismatch, int fed)
    {
        // The state fed up to commit 20 (whatever its own point was).
        var state = new SeriesState { BenchmarkId = _benchmark, MeasureId = _measure, ProfileId = 1, BranchId = _branch, State = [], LastSeriesAt = Start.AddHours(20) };

        var window = (await new SeriesReader(_source).ReadTailsAsync([state], margin: 4, CancellationToken.None, includeMismatch))[(_benchmark, _measure)];

        var matching = Enumerable.Range(0, 30).Where(i => includeMismatch || i is not (5 or 6 or 20 or 27)).ToList();
        // The whole series' point count agrees with the history, and the window's last `fed` points are the ones at or
        // before commit 20: the global index of each point is its place in the matching history.
        Assert.Equal(matching.Count, window.Count);
        var inWindow = Enumerable.Range(window.Offset, window.Count - window.Offset).Select(i => window[i]).ToList();
        Assert.Equal(matching.Skip(window.Offset).Select(i => Start.AddHours(i)), inWindow.Select(p => p.SeriesAt));
        Assert.Equal(fed, window.Offset + inWindow.Count(p => p.SeriesAt <= state.LastSeriesAt));
        if (!includeMismatch) Assert.DoesNotContain(inWindow, p => p.Value == 1300.0);
    }

    public async Task DisposeAsync()
    {
        await _source.DisposeAsync();
        await _db.DisposeAsync();
    }
}
