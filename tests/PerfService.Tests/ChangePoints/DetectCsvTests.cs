using System.Globalization;
using System.Text;
using PerfService.ChangePointEval;
using PerfService.Core.ChangePoints;

namespace PerfService.Tests.ChangePoints;

public class DetectCsvTests
{
    private static string Csv(params (string Id, double[] Values)[] series)
    {
        var sb = new StringBuilder("series_id,idx,value\n");
        foreach (var (id, values) in series)
        {
            var field = id.Contains(',') ? $"\"{id}\"" : id;
            for (var i = 0; i < values.Length; i++)
                sb.Append(CultureInfo.InvariantCulture, $"{field},{1000 + i * 2},{values[i]:R}\n");
        }
        return sb.ToString();
    }

    [Fact]
    public void Retrospective_output_lists_change_points_by_input_idx()
    {
        var a = ChangePointDetectorTests.Series(new Random(1), 200, 0.02, (120, 1.15));
        var b = ChangePointDetectorTests.Series(new Random(2), 150, 0.02);
        var c = ChangePointDetectorTests.Series(new Random(3), 150, 0.02, (70, 0.8));
        var output = DetectCsv.Run(Csv(("a", a), ("b,with comma", b), ("c", c)), online: false);
        var lines = output.TrimEnd('\n').Split('\n');
        Assert.Equal("series_id,idx,direction", lines[0]);
        Assert.Equal(3, lines.Length);
        Assert.Matches(@"^a,12(38|40|42),regression$", lines[1]);
        Assert.Matches(@"^c,11(38|40|42),improvement$", lines[2]);
    }

    [Fact]
    public void Online_output_adds_detected_and_withdrawn_columns()
    {
        var a = ChangePointDetectorTests.Series(new Random(1), 200, 0.02, (120, 1.15));
        var flicker = ChangePointDetectorTests.Series(new Random(0), 160, 0.01, (100, 1.15), (106, 1 / 1.15));
        var output = DetectCsv.Run(Csv(("a", a), ("f", flicker)), online: true);
        var lines = output.TrimEnd('\n').Split('\n');
        Assert.Equal("series_id,idx,direction,detected_at,withdrawn_at", lines[0]);
        var standing = lines[1].Split(',');
        Assert.Equal("a", standing[0]);
        Assert.Equal("regression", standing[2]);
        Assert.True(long.Parse(standing[3], CultureInfo.InvariantCulture) > long.Parse(standing[1], CultureInfo.InvariantCulture));
        Assert.Equal("", standing[4]);
        var withdrawn = lines[2].Split(',');
        Assert.Equal("f", withdrawn[0]);
        Assert.NotEqual("", withdrawn[4]);
    }

    [Fact]
    public void Rows_may_interleave_and_columns_may_be_reordered()
    {
        var series = DetectCsv.Read(new StringReader("value,series_id,idx,comment\n1.5,x,1,a\n2,\"y \"\"q\"\"\",1,b\n1.25,x,2,\n"));
        Assert.Equal(2, series.Count);
        Assert.Equal("x", series[0].Id);
        Assert.Equal([1.5, 1.25], series[0].Values);
        Assert.Equal([1L, 2L], series[0].Indexes);
        Assert.Equal("y \"q\"", series[1].Id);
    }

    [Theory]
    [InlineData("", 1, "empty")]
    [InlineData("a,b,c\n", 1, "series_id, idx and value")]
    [InlineData("series_id,idx,value\nx,1,2\nx,two,3\n", 3, "idx 'two' is not an integer")]
    [InlineData("series_id,idx,value\nx,1,2\nx,2,abc\n", 3, "value 'abc'")]
    [InlineData("series_id,idx,value\nx,1,NaN\n", 2, "finite")]
    [InlineData("series_id,idx,value\nx,5,2\n\nx,5,3\n", 4, "does not come after idx 5 (line 2)")]
    [InlineData("series_id,idx,value\nx,1\n", 2, "expected 3 fields")]
    [InlineData("series_id,idx,value\n,1,2\n", 2, "series_id is empty")]
    [InlineData("series_id,idx,value\n\"x,1,2\n", 2, "unterminated")]
    public void Bad_input_names_the_line(string csv, int line, string message)
    {
        var e = Assert.Throws<DetectCsvException>(() => DetectCsv.Run(csv, online: false));
        Assert.Equal(line, e.Line);
        Assert.Contains(message, e.Message);
        Assert.StartsWith($"line {line}: ", e.Message);
    }

    [Fact]
    public void A_header_alone_gives_a_header_alone()
    {
        Assert.Equal("series_id,idx,direction\n", DetectCsv.Run("series_id,idx,value\n", online: false));
    }
}
