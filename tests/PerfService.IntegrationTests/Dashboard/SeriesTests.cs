using PerfService.Core.Parsing;
using PerfService.Dashboard;
using PerfService.Data.Entities;

namespace PerfService.IntegrationTests.Dashboard;

public class SeriesTests(HistoryApp app) : IClassFixture<HistoryApp>
{
    private const string Series = $"/api/v1/projects/{HistoryApp.Project}/series";

    [Fact]
    public async Task A_series_is_in_commit_order_with_the_stored_values_and_bounds()
    {
        var bench = await app.BenchmarkAsync(HistoryApp.HaxReads(1).Key);
        var series = (await app.CreateClient().GetFromJsonAsync<SeriesDto>($"{Series}?benchmark={bench.Id}&measure=time&profile=i7-4790k"))!;

        Assert.Equal("main", series.Branch);
        Assert.Equal("ns", series.Measure.Unit);
        var line = Assert.Single(series.Lines);
        Assert.Equal("i7-4790k", line.Profile);
        Assert.Equal([1, 2, 3, 4, 5], line.Points.Select(p => CommitNumber(p.Commit)));
        foreach (var point in line.Points)
        {
            var commit = CommitNumber(point.Commit);
            var want = HistoryApp.HaxReads(HistoryApp.MainI7[commit]);
            Assert.Equal(want.Value, point.Value);
            Assert.Equal(want.Summary?.CiLower, point.CiLower);
            Assert.Equal(want.Summary?.CiUpper, point.CiUpper);
            Assert.Equal(20, point.SampleCount);
            Assert.Equal(app.Runs[(commit, "i7-4790k")], point.RunId);
            Assert.Equal(HistorySeed.Epoch.AddDays(commit), point.SeriesAt);
        }
        Assert.Null(series.Next);
    }

    [Fact]
    public async Task Confidence_bounds_come_back_as_the_harness_gave_them()
    {
        var expected = ResultParsers.Parse([new Artifact(HistorySeed.BdnParams, Fixtures.Read("benchmarkdotnet", HistorySeed.BdnParams))], "bdn")
            .Results.First(r => r.Measure == "time" && r.Summary?.CiLower is not null);
        var bench = await app.BenchmarkAsync(expected.Key);
        var series = (await app.CreateClient().GetFromJsonAsync<SeriesDto>($"{Series}?benchmark={bench.Id}"))!;
        var point = Assert.Single(Assert.Single(series.Lines).Points);
        Assert.Equal(expected.Value, point.Value);
        Assert.Equal(expected.Summary!.CiLower, point.CiLower);
        Assert.Equal(expected.Summary.CiUpper, point.CiUpper);
        Assert.Equal(app.BdnRun, point.RunId);
    }

    [Fact]
    public async Task Without_a_profile_every_profile_is_a_line_and_a_branch_is_its_own_series()
    {
        var bench = await app.BenchmarkAsync(HistoryApp.HaxReads(1).Key);
        var all = (await app.CreateClient().GetFromJsonAsync<SeriesDto>($"{Series}?benchmark={bench.Id}&measure=time"))!;
        Assert.Equal(["i7-4790k", "ryzen-9950x"], all.Lines.Select(l => l.Profile).Order());
        var ryzen = all.Lines.Single(l => l.Profile == "ryzen-9950x");
        Assert.Equal([HistoryApp.HaxReads(2.0).Value, HistoryApp.HaxReads(2.2).Value], ryzen.Points.Select(p => p.Value));

        var two = (await app.CreateClient().GetFromJsonAsync<SeriesDto>($"{Series}?benchmark={bench.Id}&profile=ryzen-9950x&profile=i7-4790k"))!;
        Assert.Equal(2, two.Lines.Count);

        var feature = (await app.CreateClient().GetFromJsonAsync<SeriesDto>($"{Series}?benchmark={bench.Id}&branch=feature"))!;
        var point = Assert.Single(Assert.Single(feature.Lines).Points);
        Assert.Equal(app.FeatureRun, point.RunId);
        Assert.Equal(HistoryApp.HaxReads(3.0).Value, point.Value);
    }

    [Fact]
    public async Task From_and_to_bound_the_commit_time()
    {
        var bench = await app.BenchmarkAsync(HistoryApp.HaxReads(1).Key);
        var from = Uri.EscapeDataString(HistorySeed.Epoch.AddDays(2).ToString("O"));
        var to = Uri.EscapeDataString(HistorySeed.Epoch.AddDays(4).ToString("O"));
        var series = (await app.CreateClient().GetFromJsonAsync<SeriesDto>($"{Series}?benchmark={bench.Id}&profile=i7-4790k&from={from}&to={to}"))!;
        Assert.Equal([2, 3], Assert.Single(series.Lines).Points.Select(p => CommitNumber(p.Commit)));
    }

    [Theory]
    [InlineData("json")]
    [InlineData("columns")]
    public async Task Paging_a_series_of_several_lines_visits_every_point_exactly_once(string format)
    {
        var bench = await app.BenchmarkAsync(HistoryApp.HaxReads(1).Key);
        var client = app.CreateClient();
        var seen = new List<(string, long)>();
        var pages = 0;
        for (var url = $"{Series}?benchmark={bench.Id}&limit=2&format={format}"; url is not null; pages++)
        {
            var (points, next) = await PageAsync(client, url, format);
            Assert.All(points.GroupBy(p => p.Profile), l => Assert.True(l.Count() <= 2));
            seen.AddRange(points);
            if (next is not null) Assert.Contains($"format={format}", next);
            url = next;
        }
        Assert.True(pages > 2);
        Assert.Equal(7, seen.Count);
        Assert.Equal(seen.Count, seen.Distinct().Count());
    }

    [Fact]
    public async Task Columns_carry_the_same_points_and_send_each_commit_once()
    {
        var bench = await app.BenchmarkAsync(HistoryApp.HaxReads(1).Key);
        var client = app.CreateClient();
        var points = (await client.GetFromJsonAsync<SeriesDto>($"{Series}?benchmark={bench.Id}&measure=time"))!;
        var columns = (await client.GetFromJsonAsync<SeriesColumnsDto>($"{Series}?benchmark={bench.Id}&measure=time&format=columns"))!;

        Assert.Equal((points.Benchmark.Key, points.Measure, points.Branch, points.Next), (columns.Benchmark.Key, columns.Measure, columns.Branch, columns.Next));
        Assert.Equal(points.Markers, columns.Markers);
        Assert.Equal(points.Lines.Select(l => l.Profile), columns.Lines.Select(l => l.Profile));
        foreach (var (line, column) in points.Lines.Zip(columns.Lines))
        {
            Assert.Equal(line.Points.Select(p => p.RunId), column.RunIds);
            Assert.Equal(line.Points.Select(p => p.Commit), column.Commits.Select(i => columns.Shas[i]));
            Assert.Equal(line.Points.Select(p => p.SeriesAt.ToUnixTimeMilliseconds()), column.Times);
            Assert.Equal(line.Points.Select(p => p.Value), column.Values);
            Assert.Equal(line.Points.Select(p => p.CiLower), column.Lower);
            Assert.Equal(line.Points.Select(p => p.CiUpper), column.Upper);
            Assert.Equal(line.Points.Select(p => p.SampleCount), column.Samples);
        }
        // Commits 2 and 4 are on both profiles' lines: 7 points, 5 commits.
        Assert.Equal(7, columns.Lines.Sum(l => l.RunIds.Count));
        Assert.Equal([1, 2, 3, 4, 5], columns.Shas.Select(CommitNumber).Order());
    }

    [Fact]
    public async Task Csv_has_a_header_and_one_row_per_point()
    {
        var bench = await app.BenchmarkAsync(HistoryApp.HaxReads(1).Key);
        var response = await app.CreateClient().GetAsync($"{Series}?benchmark={bench.Id}&profile=i7-4790k&format=csv");
        Assert.Equal("text/csv", response.Content.Headers.ContentType?.MediaType);
        var lines = (await response.Content.ReadAsStringAsync()).Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal("profile,run_id,commit,series_at,value,ci_lower,ci_upper,sample_count", lines[0]);
        Assert.Equal(6, lines.Length);
        var first = lines[1].Split(',');
        Assert.Equal(["i7-4790k", app.Runs[(1, "i7-4790k")].ToString(), HistorySeed.Sha(1), "2026-01-02T12:00:00Z"], first[..4]);
        Assert.Equal(HistoryApp.HaxReads(1.0).Value, double.Parse(first[4], System.Globalization.CultureInfo.InvariantCulture));

        var request = new HttpRequestMessage(HttpMethod.Get, $"{Series}?benchmark={bench.Id}&profile=i7-4790k");
        request.Headers.Accept.ParseAdd("text/csv");
        Assert.StartsWith("profile,run_id", await (await app.CreateClient().SendAsync(request)).Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task Alerts_on_the_series_come_as_markers()
    {
        var bench = await app.BenchmarkAsync(HistoryApp.HaxReads(1).Key);
        var alertId = await app.WithDbAsync(async db =>
        {
            var alert = new Alert
            {
                ProjectId = db.Projects.Single(p => p.Slug == HistoryApp.Project).Id,
                Kind = AlertKind.ChangePoint,
                State = AlertState.Active,
                BenchmarkId = bench.Id,
                MeasureId = db.Measures.Single(m => m.Name == "time" && m.Unit == "ns").Id,
                ProfileId = 2,
                GroupKey = "cp-4",
                FromCommit = HistorySeed.Sha(3),
                ToCommit = HistorySeed.Sha(4),
                Summary = "time +60%",
                CreatedAt = DateTimeOffset.UtcNow,
                UpdatedAt = DateTimeOffset.UtcNow,
            };
            db.Alerts.Add(alert);
            await db.SaveChangesAsync();
            return alert.Id;
        });
        var series = (await app.CreateClient().GetFromJsonAsync<SeriesDto>($"{Series}?benchmark={bench.Id}&profile=i7-4790k"))!;
        var marker = Assert.Single(series.Markers);
        Assert.Equal((alertId, "ChangePoint", "Active", "i7-4790k", HistorySeed.Sha(4)), (marker.AlertId, marker.Kind, marker.State, marker.Profile, marker.ToCommit));
        Assert.Equal(HistorySeed.Epoch.AddDays(4), marker.At);

        var other = (await app.CreateClient().GetFromJsonAsync<SeriesDto>($"{Series}?benchmark={bench.Id}&profile=ryzen-9950x"))!;
        Assert.Empty(other.Markers);
    }

    [Theory]
    [InlineData("benchmark=999999", HttpStatusCode.NotFound)]
    [InlineData("", HttpStatusCode.BadRequest)]
    [InlineData("benchmark={0}&profile=no-such-profile", HttpStatusCode.NotFound)]
    [InlineData("benchmark={0}&branch=nope", HttpStatusCode.NotFound)]
    [InlineData("benchmark={0}&cursor=garbage!", HttpStatusCode.BadRequest)]
    [InlineData("benchmark={0}&format=xml", HttpStatusCode.BadRequest)]
    public async Task Bad_requests_answer_with_problem_details(string query, HttpStatusCode status)
    {
        var bench = await app.BenchmarkAsync(HistoryApp.HaxReads(1).Key);
        var response = await app.CreateClient().GetAsync($"{Series}?{string.Format(query, bench.Id)}");
        Assert.Equal(status, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
    }

    private static async Task<(List<(string Profile, long RunId)> Points, string? Next)> PageAsync(HttpClient client, string url, string format)
    {
        if (format == "columns")
        {
            var columns = (await client.GetFromJsonAsync<SeriesColumnsDto>(url))!;
            return (columns.Lines.SelectMany(l => l.RunIds.Select(r => (l.Profile, r))).ToList(), columns.Next);
        }
        var page = (await client.GetFromJsonAsync<SeriesDto>(url))!;
        return (page.Lines.SelectMany(l => l.Points.Select(p => (l.Profile, p.RunId))).ToList(), page.Next);
    }

    private static int CommitNumber(string sha) => HistorySeed.CommitNumber(sha);
}
