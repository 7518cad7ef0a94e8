using System.Text;
using PerfService.Core.Parsing;
using static PerfService.Tests.Parsing.ParsingFixtures;

namespace PerfService.Tests.Parsing;

public class ResultParsersTests
{
    /// <summary>Fixtures that are deliberately not parsed, and the advice each rejection must carry.</summary>
    private static readonly Dictionary<string, string> _rejected = new()
    {
        ["benchmarkdotnet/needlr-hostbuild-failed-NA-report.csv"] = "report-full.json",
        ["benchmarkdotnet/needlr-hostbuild-report.csv"] = "report-full.json",
        ["benchmarkdotnet/needlr-hostbuild-report-github.md"] = "report-full.json",
        ["criterion/bencher-criterion-human-output-change-and-panic.txt"] = "--output-format bencher",
        ["googlebenchmark/gab-googlecpp-2019-minimal.json"] = "Google Benchmark",
    };

    public static TheoryData<string> AllFixtures() => [.. ParsingFixtures.AllUnits()];

    [Theory]
    [MemberData(nameof(AllFixtures))]
    public void Every_fixture_parses_or_is_rejected_with_advice(string fixture)
    {
        var files = Load(fixture);
        if (_rejected.TryGetValue(fixture, out var advice))
        {
            var ex = Assert.Throws<ParseException>(() => ResultParsers.Parse(files));
            Assert.Contains(advice, ex.Reason);
            Assert.Equal(files[0].Path, ex.File);
            return;
        }
        var format = ExpectedFormat(fixture);
        var result = ResultParsers.Parse(files);
        Assert.Equal(format, result.Format);
        Assert.Equal(format, ResultParsers.Detect(files));
        Assert.NotEmpty(result.Results);
        AssertSane(result, fixture);
        // A fixture that records failures yields them as failed results, with a reason and no value.
        Assert.All(result.Results.Where(r => r.Failed), r => Assert.False(string.IsNullOrWhiteSpace(r.Error)));
        Assert.All(result.Results.Where(r => !r.Failed), r => Assert.NotNull(r.Value));
        // The explicit format gives exactly what auto-detection gives (a directory of several formats has no one format).
        if (format.Contains('+')) return;
        var explicitResult = ResultParsers.Parse(files, format);
        Assert.Equal(result.Results.Select(r => (r.Key, r.Measure, r.Value)), explicitResult.Results.Select(r => (r.Key, r.Measure, r.Value)));
    }

    [Fact]
    public void Formats_lists_auto_then_every_parser()
    {
        Assert.Equal(["auto", "bdn", "criterion", "gobench", "k6", "json", "counters"], ResultParsers.Formats);
    }

    [Fact]
    public void Detect_by_content_not_by_name()
    {
        var go = File("gobench", "haxmap-count20-command-line-arguments.txt");
        Assert.Equal("gobench", ResultParsers.Detect([go with { Path = "results.json" }]));
        var k6 = File("k6", "szboynono-summary-export-legacy-compact.json");
        Assert.Equal("k6", ResultParsers.Detect([k6 with { Path = "report.txt" }]));
        Assert.Equal("criterion", ResultParsers.Detect([File("criterion", "cargo-criterion-message-format-json-first-run-change-null.ndjson") with { Path = "out.json" }]));
    }

    [Fact]
    public void Mixed_formats_are_parsed_each_and_concatenated()
    {
        var files = new[] { File("benchmarkdotnet", "gab-bdn0.12.1-no-memory-report-full.json"), File("gobench", "bencher-space-separated-auxmetric.txt") };
        Assert.Equal("bdn+gobench", ResultParsers.Detect(files));
        var result = ResultParsers.Parse(files);
        Assert.Equal("bdn+gobench", result.Format);
        Assert.Equal(2 + 4, result.Results.Count);
        Assert.Equal("macOS Catalina 10.15.4 (19E287) [Darwin 19.4.0]", result.Environment["os"]); // first file wins
        Assert.Contains(result.Warnings, w => w.Contains("'os' is 'darwin'"));
    }

    [Fact]
    public void Unknown_format_name_is_a_parse_exception_naming_the_file()
    {
        var ex = Assert.Throws<ParseException>(() => ResultParsers.Parse([Text("a.txt", "x")], "junit"));
        Assert.Equal("a.txt", ex.File);
        Assert.Contains("auto, bdn, criterion, gobench, k6, json", ex.Reason);
    }

    [Fact]
    public void Unrecognised_content_names_the_file()
    {
        var ex = Assert.Throws<ParseException>(() => ResultParsers.Parse([File("k6", "szboynono-summary-export-legacy-compact.json"), Text("notes.txt", "hello\nworld\n")]));
        Assert.Equal("notes.txt", ex.File);
        Assert.Contains("format not recognised", ex.Reason);
        Assert.Throws<ParseException>(() => ResultParsers.Detect([Text("n.json", """{"hello":"world"}""")]));
    }

    [Theory]
    [InlineData("")]
    [InlineData("  \n\t\r\n")]
    [InlineData("\uFEFF")]
    public void Empty_files_are_reported_as_empty(string content)
    {
        foreach (var format in ResultParsers.Formats)
        {
            var ex = Assert.Throws<ParseException>(() => ResultParsers.Parse([Text("e.json", content)], format));
            Assert.Equal("e.json", ex.File);
            Assert.Contains("empty", ex.Reason);
        }
    }

    [Fact]
    public void No_files_is_an_error()
    {
        Assert.Throws<ParseException>(() => ResultParsers.Parse([]));
        Assert.Throws<ParseException>(() => ResultParsers.Detect([]));
    }

    [Fact]
    public void Truncated_json_in_auto_mode_reports_where_it_broke()
    {
        var k6 = File("k6", "benc-uk-handlesummary-http-submetric-p99.json");
        var ex = Assert.Throws<ParseException>(() => ResultParsers.Parse([k6 with { Content = k6.Content[..1000] }]));
        Assert.Matches(@"^line \d+, byte \d+$", ex.Location);
    }

    [Fact]
    public void Wrong_explicit_format_says_what_was_expected()
    {
        var ex = Assert.Throws<ParseException>(() => ResultParsers.Parse([File("k6", "szboynono-summary-export-legacy-compact.json")], "bdn"));
        Assert.Equal("$", ex.Location);
        Assert.Contains("\"Benchmarks\"", ex.Reason);
    }

    [Fact]
    public void Bom_and_crlf_are_tolerated()
    {
        var text = System.IO.File.ReadAllText(TestPaths.Fixture("gobench", "bencher-space-separated-auxmetric.txt")).Replace("\n", "\r\n");
        var bytes = Encoding.UTF8.GetPreamble().Concat(Encoding.UTF8.GetBytes(text)).ToArray();
        var result = ResultParsers.Parse([new Artifact("g.txt", bytes)]);
        Assert.Equal(4, result.Results.Count);
        Assert.Equal("bencher.dev.BenchmarkFib10", result.Results[0].Name);
        var json = Encoding.UTF8.GetPreamble().Concat(File("k6", "szboynono-summary-export-legacy-compact.json").Content.ToArray()).ToArray();
        Assert.Equal("k6", ResultParsers.Parse([new Artifact("k.json", json)]).Format);
    }

    [Fact]
    public void Invalid_utf8_inside_a_json_string_is_located_not_crashed_on()
    {
        // Found by the garbling fuzz test: the JSON reader accepts it, GetString() would throw InvalidOperationException.
        var bytes = Encoding.UTF8.GetBytes("{\"results\":[{\"benchmark\":\"X\",\"unit\":\"x\",\"value\":1}]}");
        bytes[Array.IndexOf(bytes, (byte)'X')] = 0xFF;
        foreach (var format in new[] { "auto", "json" })
        {
            var ex = Assert.Throws<ParseException>(() => ResultParsers.Parse([new Artifact("u.json", bytes)], format));
            Assert.Equal("line 1, byte 27", ex.Location); // the X is the 27th byte
            Assert.Contains("UTF-8", ex.Reason);
        }
    }
}
