using System.Text.Json;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using PerfService.Dashboard;

namespace PerfService.IntegrationTests.Dashboard;

/// <summary>The series writer without a database: long enough lines that the body goes out in many flushes.</summary>
public class SeriesJsonTests
{
    private static readonly DateTimeOffset Epoch = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
    private static readonly JsonSerializerOptions Web = new(JsonSerializerDefaults.Web);

    [Fact]
    public async Task Both_shapes_stream_every_point_of_long_lines()
    {
        var doc = Document(5_000);
        var points = JsonSerializer.Deserialize<SeriesDto>(await WriteAsync(doc, columns: false), Web)!;
        var columns = JsonSerializer.Deserialize<SeriesColumnsDto>(await WriteAsync(doc, columns: true), Web)!;

        foreach (var (line, written, column) in doc.Lines.Zip(points.Lines, columns.Lines))
        {
            Assert.Equal(line.Profile, written.Profile);
            Assert.Equal(line.Points.Select(p => (p.RunId, p.Commit, p.At, p.Samples)), written.Points.Select(p => (p.RunId, p.Commit, p.SeriesAt, p.SampleCount)));
            Assert.Equal(line.Points.Select(p => p.Value), written.Points.Select(p => p.Value!.Value));
            Assert.Equal(line.Points.Select(p => p.Lower), column.Lower);
            Assert.Equal(line.Points.Select(p => p.At.ToUnixTimeMilliseconds()), column.Times);
            Assert.Equal(line.Points.Select(p => p.Commit), column.Commits.Select(i => columns.Shas[i]));
        }
        // The two lines are measured on the same commits.
        Assert.Equal(5_000, columns.Shas.Count);
        Assert.Equal("next?cursor=x", points.Next);
    }

    [Fact]
    public async Task A_value_json_cannot_hold_is_written_as_null_rather_than_breaking_the_stream()
    {
        var line = new SeriesLine("i7-4790k");
        line.Points.Add(new SeriesPoint(1, "abc", Epoch, double.NaN, double.NegativeInfinity, 2.5, 3));
        var doc = new SeriesDocument(Benchmark, Time, "main", [line], [], null);
        var point = Assert.Single(Assert.Single(JsonSerializer.Deserialize<SeriesDto>(await WriteAsync(doc, columns: false), Web)!.Lines).Points);
        Assert.Equal((null, null, 2.5), (point.Value, point.CiLower, point.CiUpper));
    }

    private static readonly SeriesBenchmarkDto Benchmark = new(7, "Go.Maps/Reads", "Reads", "maps", new Dictionary<string, string> { ["n"] = "10" }, null);
    private static readonly MeasureDto Time = new("time", "ns", "LowerIsBetter");

    private static SeriesDocument Document(int count)
    {
        var lines = new[] { new SeriesLine("i7-4790k"), new SeriesLine("ryzen-9950x") };
        for (var i = 0; i < count; i++)
            foreach (var (line, n) in lines.Select((l, n) => (l, n)))
                line.Points.Add(new SeriesPoint(2 * i + n + 1, $"{i:x40}", Epoch.AddMinutes(10 * i), 100 + i / 7.0, i % 3 == 0 ? null : 99.5, 101.25, 20));
        var marker = new SeriesMarkerDto(3, "ChangePoint", "Active", "i7-4790k", $"{1:x40}", $"{2:x40}", Epoch, "time +60%");
        return new SeriesDocument(Benchmark, Time, "main", lines, [marker], "next?cursor=x");
    }

    private static async Task<string> WriteAsync(SeriesDocument doc, bool columns)
    {
        var body = new MemoryStream();
        var http = new DefaultHttpContext { RequestServices = new ServiceCollection().AddOptions().BuildServiceProvider() };
        http.Response.Body = body;
        await new SeriesJson(doc, columns).ExecuteAsync(http);
        Assert.Equal("application/json; charset=utf-8", http.Response.ContentType);
        return System.Text.Encoding.UTF8.GetString(body.ToArray());
    }
}
