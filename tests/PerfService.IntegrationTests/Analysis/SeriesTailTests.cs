using Npgsql;
using PerfService.Data.Entities;
using PerfService.Analysis;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>
/// The tail read gives a fed series' last points and its new ones; the state places them. Points of runs not yet
/// analysed stay out unless their analysis is the one reading (else a point would be fed before its run's analysis
/// could tell whether it arrived late), and so do profile-mismatch points (a different machine's level would read as
/// a step). If the window were placed wrongly, an alert would name the wrong commits.
/// </summary>
public class SeriesTailTests : IAsyncLifetime
{
    private TestDatabase _db = null!;
    private NpgsqlDataSource _source = null!;
    private long _benchmark, _measure, _branch;
    private readonly Dictionary<int, long> _resultAt = [];
    private readonly Dictionary<int, long> _runAt = [];
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
        // 30 commits an hour apart on profile 1; commits 5, 6, 20 and 27 ran on a machine that did not match its profile;
        // the runs of commits 24 and 25 are not analysed yet. Another profile's runs of the same benchmark share the
        // index range's prefix and must not be read.
        for (var i = 0; i < 30; i++)
        {
            var commit = await _db.ScalarAsync<long>("INSERT INTO commits (project_id, sha, committed_at, first_seen_at) VALUES ($1, $2, $3, now()) RETURNING id",
                project, $"c{i:0000000}", Start.AddHours(i));
            foreach (var profile in new long[] { 1, 2 })
            {
                var mismatch = profile == 1 && i is 5 or 6 or 20 or 27;
                var run = await _db.ScalarAsync<long>("""
                    INSERT INTO runs (project_id, commit_id, branch_id, profile_id, suite_id, role, round, format, profile_mismatch, environment, created_at, result_count, failed_count, analysed_at)
                    VALUES ($1, $2, $3, $4, $5, 'head', 0, 'json', $6, '{}', now(), 1, 0, CASE WHEN $7 THEN NULL ELSE now() END) RETURNING id
                    """, project, commit, _branch, profile, suite, mismatch, profile == 1 && i is 24 or 25);
                var result = await _db.ScalarAsync<long>("""
                    INSERT INTO results (run_id, benchmark_id, measure_id, profile_id, branch_id, series_at, value, median, sample_count)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $7, 0) RETURNING id
                    """, run, _benchmark, _measure, profile, _branch, Start.AddHours(i), mismatch ? 1300.0 : 1000.0 + i);
                if (profile == 1) (_runAt[i], _resultAt[i]) = (run, result);
            }
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task The_window_holds_the_last_fed_points_and_the_new_ones_of_analysed_runs_and_the_runs_being_analysed(bool includeMismatch)
    {
        bool Matching(int i) => includeMismatch || i is not (5 or 6 or 20 or 27);
        // The state fed every matching point up to commit 20.
        var fedPoints = Enumerable.Range(0, 21).Where(Matching).ToList();
        var state = new SeriesState
        {
            BenchmarkId = _benchmark, MeasureId = _measure, ProfileId = 1, BranchId = _branch, State = [], LastSeriesAt = Start.AddHours(20),
            LastResultId = _resultAt[fedPoints[^1]],
        };

        // Commit 25's run is the one being analysed; commit 24's waits for its own analysis.
        var tail = (await new SeriesReader(_source).ReadTailsAsync([state], margin: 4, [_runAt[25]], CancellationToken.None, includeMismatch))[(_benchmark, _measure)];
        var window = SeriesWindow.Tail(tail, fedPoints.Count, state.LastResultId)!;

        // The margin is the last 4 rows up to commit 20, less the mismatched one; then every new point of an analysed
        // run or of the run being analysed.
        var expected = Enumerable.Range(17, 4).Concat(Enumerable.Range(21, 9)).Where(i => Matching(i) && i != 24).ToList();
        Assert.Equal(expected.Select(i => Start.AddHours(i)), tail.Select(p => p.SeriesAt));
        if (!includeMismatch) Assert.DoesNotContain(tail, p => p.Value == 1300.0);
        // Placed by the state: the last fed point at index fed − 1, the first new one right after it.
        Assert.Equal(state.LastResultId, window[fedPoints.Count - 1].ResultId);
        Assert.Equal(_resultAt[21], window[fedPoints.Count].ResultId);
        Assert.True(window.HoldsFrom([_resultAt[21], _resultAt[25]], fedPoints.Count));
        Assert.False(window.HoldsFrom([_resultAt[21]], fedPoints.Count + 1));
        Assert.False(window.HoldsFrom([_resultAt[25], _resultAt[24]], fedPoints.Count));
        Assert.True(window.HoldsFrom([], fedPoints.Count));
        // The same point arriving twice is one point the window must hold.
        Assert.True(window.HoldsFrom([_resultAt[25], _resultAt[21], _resultAt[25]], fedPoints.Count));
        Assert.False(window.HoldsFrom([_resultAt[24], _resultAt[24]], fedPoints.Count));
        // A tail without the last fed point cannot be placed.
        Assert.Null(SeriesWindow.Tail(tail, fedPoints.Count, _resultAt[24]));
    }

    [Fact]
    public async Task The_points_a_batch_brings_are_its_runs_results_with_a_value_by_run_with_their_measures_direction()
    {
        // Commit 3's run also measured a throughput (higher is better) and one failed benchmark, whose result has no
        // value: the series reads leave it out, so the batch must too.
        var throughput = await _db.ScalarAsync<long>("INSERT INTO measures (name, unit, direction) VALUES ('throughput', 'op/s', 'HigherIsBetter') RETURNING id");
        var failed = await _db.ScalarAsync<long>("INSERT INTO benchmarks (suite_id, key, name, parameters) SELECT suite_id, 'F', 'F', '{}' FROM benchmarks WHERE id = $1 RETURNING id", _benchmark);
        var higher = await _db.ScalarAsync<long>("""
            INSERT INTO results (run_id, benchmark_id, measure_id, profile_id, branch_id, series_at, value, median, sample_count)
            VALUES ($1, $2, $3, 1, $4, $5, 5.0, 5.0, 0) RETURNING id
            """, _runAt[3], _benchmark, throughput, _branch, Start.AddHours(3));
        await _db.ScalarAsync<long>("""
            INSERT INTO results (run_id, benchmark_id, measure_id, profile_id, branch_id, series_at, value, median, sample_count, error)
            VALUES ($1, $2, $3, 1, $4, $5, NULL, NULL, 0, 'threw') RETURNING id
            """, _runAt[3], failed, _measure, _branch, Start.AddHours(3));

        var points = await new SeriesReader(_source).ReadRunPointsAsync([_runAt[3], _runAt[4], _runAt[29] + 1000], CancellationToken.None);

        Assert.Equal([_runAt[3], _runAt[4]], points.Keys.Order());
        Assert.Equal(
            [new RunPoint(_resultAt[3], _runAt[3], _benchmark, _measure, true), new RunPoint(higher, _runAt[3], _benchmark, throughput, false)],
            points[_runAt[3]]);
        Assert.Equal([new RunPoint(_resultAt[4], _runAt[4], _benchmark, _measure, true)], points[_runAt[4]]);
    }

    public async Task DisposeAsync()
    {
        await _source.DisposeAsync();
        await _db.DisposeAsync();
    }
}
