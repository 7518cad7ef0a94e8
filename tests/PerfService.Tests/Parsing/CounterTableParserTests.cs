using PerfService.Core.Parsing;
using PerfService.Core.Parsing.Counters;
using PerfService.Core.Results;
using static PerfService.Tests.Parsing.ParsingFixtures;

namespace PerfService.Tests.Parsing;

public class CounterTableParserTests
{
    private const string Folder = "counters";
    private static readonly CounterTableParser _parser = new();

    private static ParseResult Parse(string name) => _parser.Parse([File(Folder, name)]);

    private static ParseException Fails(string text) =>
        Assert.Throws<ParseException>(() => ResultParsers.Parse([Text("out.txt", text)], "counters"));

    [Fact]
    public void Markdown_table_of_per_second_counters_gives_one_series_per_column()
    {
        var result = Parse("perper-messaging-enumeration-10-nodes.md");
        // "# benchmark: Perper.Messaging" prefixes every counter, "# parameters: method=Enumeration, nodes=10" is the identity.
        var sent = Single(result, "Perper.Messaging.Sent(method=Enumeration, nodes=10)", "msgs/s");
        Assert.Equal(12, sent.Samples!.Count); // rows 1..12, the Time column labels them
        Assert.Equal(14122, sent.Samples[0]);
        Assert.Equal(3711, sent.Samples[^1]);
        Assert.Equal(14218.333333333334, sent.Value!.Value, 9);
        Assert.Equal((Direction.HigherIsBetter, "msgs/s"), (sent.Direction, sent.Unit));
        Assert.Equal(1457, Single(result, "Perper.Messaging.Enumerated(method=Enumeration, nodes=10)", "msgs/s").Samples![0]);
        // Queried is '-' in every row: no reading, so no series; Time is a label, not a counter.
        Assert.DoesNotContain(result.Results, r => r.Name.EndsWith(".Queried", StringComparison.Ordinal) || r.Name.EndsWith(".Time", StringComparison.Ordinal));
        Assert.Equal(4, result.Results.Count); // Sent, Enumerated, Filtered, Processed
        Assert.Equal("2 vCPU, Debian 12", result.Environment["machine"]);
    }

    [Fact]
    public void Plain_text_columns_aligned_with_spaces()
    {
        var result = Parse("perper-messaging-filtering-10-nodes.txt");
        var filtered = Single(result, "Filtered", "msgs/s");
        Assert.Equal(10, filtered.Samples!.Count);
        Assert.Equal(13029, filtered.Samples[0]);
        Assert.Equal(13165.9, filtered.Value!.Value, 9);
        Assert.Equal(5, result.Results.Count);
    }

    [Fact]
    public void Csv_with_empty_cells_for_counters_that_had_no_reading()
    {
        var result = Parse("perper-messaging-querying-10-nodes.csv");
        // Queried is empty until the query burst of the last row.
        Assert.Equal([467691.0], Single(result, "Queried", "msgs/s").Samples);
        Assert.Equal(7, Single(result, "Sent", "msgs/s").Samples!.Count);
    }

    [Fact]
    public void Unit_column_layout_groups_rows_into_series_and_converts_times_to_ns()
    {
        var result = Parse("counters-unit-column-latency.md");
        var roundTrip = Single(result, "Perper.Messaging.RoundTrip(Nodes=2)");
        Assert.Equal(("ns", Direction.LowerIsBetter, 5), (roundTrip.Unit, roundTrip.Direction, roundTrip.Samples!.Count));
        Assert.Equal(376_000, roundTrip.Samples[0], 6); // 0.376 ms
        var throughput = Single(result, "Perper.Messaging.Throughput(Nodes=10)", "msgs/s");
        Assert.Equal(Direction.HigherIsBetter, throughput.Direction);
        Assert.Equal(4, result.Results.Count);
    }

    [Theory]
    [InlineData("perper-messaging-enumeration-10-nodes.md")]
    [InlineData("perper-messaging-filtering-10-nodes.txt")]
    [InlineData("perper-messaging-querying-10-nodes.csv")]
    [InlineData("counters-unit-column-latency.md")]
    public void Detected_automatically(string name) => Assert.Equal("counters", ResultParsers.Detect([File(Folder, name)]));

    [Fact]
    public void Bdn_markdown_and_go_output_are_not_taken_for_counter_tables()
    {
        Assert.Equal("bdn", ResultParsers.Detect([File("benchmarkdotnet", "needlr-hostbuild-report-github.md")]));
        Assert.Equal("gobench", ResultParsers.Detect([Text("go.txt", "goos: linux\nBenchmarkX-8  100  12.5 ns/op\n")]));
        Assert.Throws<ParseException>(() => ResultParsers.Detect([Text("notes.txt", "| a | b |\n| 1 | 2 |\n")])); // no units: not recognised
    }

    [Fact]
    public void A_non_number_is_reported_with_line_column_and_header()
    {
        var e = Fails("| Time (s) | Sent (msgs/s) |\n|---|---|\n| 1 | 100 |\n| 2 | lots |\n");
        Assert.Equal("line 4, column 7", e.Location);
        Assert.Contains("column 'Sent (msgs/s)': expected a number, found 'lots'", e.Reason);
    }

    [Fact]
    public void A_row_of_the_wrong_width_is_reported_with_its_line()
    {
        var e = Fails("Time (s),Sent (msgs/s),Filtered (msgs/s)\n1,100,90\n2,100\n");
        Assert.StartsWith("line 3, column", e.Location);
        Assert.Contains("expected 3 cells like the header on line 1, found 2", e.Reason);
    }

    [Fact]
    public void A_counter_column_without_a_unit_is_refused_with_advice()
    {
        var e = Fails("| Time (s) | Sent (msgs/s) | Filtered |\n|---|---|---|\n| 1 | 100 | 90 |\n");
        Assert.Equal("line 1, column 30", e.Location);
        Assert.Contains("column 'Filtered' has no unit; write it as 'Filtered (msgs/s)'", e.Reason);
    }

    [Fact]
    public void Negative_times_non_finite_values_and_missing_tables_are_refused()
    {
        Assert.Contains("expected a value ≥ 0", Fails("Time (s),Latency (ms)\n1,-3\n").Reason);
        Assert.Contains("absurdly large", Fails("Time (s),Sent (msgs/s)\n1,1e300\n").Reason);
        var none = Fails("just some log output\nand nothing else\n");
        Assert.Null(none.Location);
        Assert.Contains("no table found", none.Reason);
        Assert.Contains("the file is empty", Fails("  \n").Reason);
        Assert.Contains("has no values", Fails("| Time (s) | Sent (msgs/s) |\n|---|---|\n| 1 | - |\n").Reason);
    }

    [Fact]
    public void Unit_column_needs_a_name_a_value_and_a_unit_in_every_row()
    {
        Assert.Contains("needs a name column", Fails("| Value | Unit |\n|---|---|\n| 1 | ms |\n").Reason);
        Assert.Contains("needs a 'value' column", Fails("| Name | Unit |\n|---|---|\n| a | ms |\n").Reason);
        var e = Fails("| Name | Value | Unit |\n|---|---|---|\n| a | 1 | ms |\n| a | 2 |  |\n");
        Assert.Contains("the unit is empty", e.Reason);
        Assert.Equal("line 4, column 12", e.Location);
    }
}
