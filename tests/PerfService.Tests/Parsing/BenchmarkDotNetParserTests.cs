using System.Text;
using PerfService.Core.Parsing;
using PerfService.Core.Parsing.Bdn;
using PerfService.Core.Results;
using static PerfService.Tests.Parsing.ParsingFixtures;

namespace PerfService.Tests.Parsing;

public class BenchmarkDotNetParserTests
{
    private const string Folder = "benchmarkdotnet";
    private static readonly BenchmarkDotNetParser _parser = new();

    private static ParseResult Parse(string name) => _parser.Parse([File(Folder, name)]);

    [Fact]
    public void Params_become_ordered_parameters_and_a_generated_job_id_is_replaced_by_its_characteristics()
    {
        var result = Parse("newday-bdn0.15.8-params-servergc-report-full.json");
        // Benchmarks[0]: "Parameters":"N=1000", DisplayInfo "…: Job-RIPEJG(Server=True, IterationCount=3) [N=1000]".
        var sha = Single(result, "BenchmarkDotNetAnalyser.SampleBenchmarks.Benchmarks.Md5VsSha256Benchmark.Sha256(N=1000) [Server=True, IterationCount=3]");
        Assert.Equal("BenchmarkDotNetAnalyser.SampleBenchmarks.Benchmarks.Md5VsSha256Benchmark.Sha256", sha.Name);
        Assert.Equal([new("N", "1000")], sha.Parameters);
        Assert.Equal("Server=True, IterationCount=3", sha.Job);
        Assert.Equal("ns", sha.Unit);
        Assert.Equal(Direction.LowerIsBetter, sha.Direction);
        // Statistics of Benchmarks[0]: Mean, Median, StandardDeviation, Min, Max, ConfidenceInterval (Level 12 = 99.9 %).
        Assert.Equal(663.6385599772135, sha.Value);
        var s = sha.Summary!;
        Assert.Equal(663.6385599772135, s.Mean);
        Assert.Equal(671.9368934631348, s.Median);
        Assert.Equal(50.376152701963505, s.StdDev);
        Assert.Equal(609.6284866333008, s.Min);
        Assert.Equal(709.3502998352051, s.Max);
        Assert.Equal(-255.4099951706736, s.CiLower);
        Assert.Equal(1582.6871151251007, s.CiUpper);
        Assert.Equal(0.999, s.CiLevel);
        Assert.Equal(3, s.N);
        // Workload/Result measurements: 639241800 ns / 1048576 ops, 743807700 / 1048576, 704576900 / 1048576.
        Assert.Equal([609.6284866333008, 709.3502998352051, 671.9368934631348], sha.Samples!);

        // Benchmarks[5]: Md5, N=100000, Mean 193340.73893229166; 2 methods × 3 N are 6 distinct time series.
        Assert.Equal(193340.73893229166, Single(result, "BenchmarkDotNetAnalyser.SampleBenchmarks.Benchmarks.Md5VsSha256Benchmark.Md5(N=100000) [Server=True, IterationCount=3]").Value);
        Assert.Equal(6, result.Results.Where(r => r.Measure == Measures.Time).Select(r => r.Key).Distinct().Count());
        // Memory of Benchmarks[0]: BytesAllocatedPerOperation 112, Gen0Collections 2 over TotalOperations 1048576.
        Assert.Equal(112, Single(result, sha.Key, Measures.Allocated).Value);
        Assert.Equal(2 * 1000.0 / 1048576, Single(result, sha.Key, Measures.Gen0).Value);
    }

    [Fact]
    public void Net8_and_net9_jobs_of_one_method_are_two_series()
    {
        var result = Parse("mcostello-bdn0.15.2-multi-runtime-net8-net9-report-full-compressed.json");
        // Benchmarks[0] (.NET 8.0, Mean 3.0207636704047522, N 30) and Benchmarks[3] (.NET 9.0, Mean 2.9673423369725547, N 15).
        var net8 = Single(result, "DotNetBenchmarks.IndexOfAnyBenchmarks.IndexOfAny_String [.NET 8.0]");
        var net9 = Single(result, "DotNetBenchmarks.IndexOfAnyBenchmarks.IndexOfAny_String [.NET 9.0]");
        Assert.Equal(3.0207636704047522, net8.Value);
        Assert.Equal(2.9673423369725547, net9.Value);
        Assert.Equal(30, net8.Summary!.N);
        Assert.Equal(15, net9.Summary!.N);
        Assert.Equal(30, net8.Samples!.Count);
        Assert.Equal(2.8538770973682404, net8.Samples[0]); // first Workload/Result measurement
        Assert.Equal(6, result.Results.Count(r => r.Measure == Measures.Time));
        Assert.Equal(6, result.Results.Where(r => r.Measure == Measures.Time).Select(r => r.Key).Distinct().Count());
    }

    [Fact]
    public void A_benchmark_without_statistics_is_a_failed_result_not_dropped_nor_zero()
    {
        var result = Parse("mcostello-bdn0.14.1-nightly-linux-one-failed-report-full-compressed.json");
        var failed = Single(result, "TodoApp.OpenApiBenchmarks.Swashbuckle [DefaultJob]");
        Assert.True(failed.Failed);
        Assert.Null(failed.Value);
        Assert.Contains("no statistics", failed.Error);
        Assert.DoesNotContain(result.Results, r => r.Name == failed.Name && r.Measure != Measures.Time); // no memory either
        // The two that ran: AspNetCore Mean 1546001.6720196758, 501549 B/op, Gen0 3 over 128 ops.
        var ok = Single(result, "TodoApp.OpenApiBenchmarks.AspNetCore [DefaultJob]");
        Assert.Equal(1546001.6720196758, ok.Value);
        Assert.Equal(501549, Single(result, ok.Key, Measures.Allocated).Value);
        Assert.Equal(23.4375, Single(result, ok.Key, Measures.Gen0).Value);
        Assert.Equal(4798916.111430921, Single(result, "TodoApp.OpenApiBenchmarks.NSwag [DefaultJob]").Value);
    }

    [Fact]
    public void A_run_where_everything_failed_yields_only_failed_results()
    {
        var result = Parse("needlr-hostbuild-failed-statistics-null-report-full-compressed.json");
        Assert.Equal(3, result.Results.Count);
        Assert.All(result.Results, r => Assert.True(r.Failed && r.Value is null && r.Measure == Measures.Time));
        Assert.Contains(result.Results, r => r.Key == "NexusLabs.Needlr.Benchmarks.Benchmarks.HostBuildBenchmarks.BuildHost_Reflection [ShortRun]");
    }

    [Fact]
    public void Gen0_and_gen1_are_per_1000_operations_and_brief_export_matches_full()
    {
        // Memory: Gen0Collections 2268, Gen1Collections 84, TotalOperations 512, BytesAllocatedPerOperation 37093627.
        var full = Parse("powerutils-bdn0.15.1-gen0-gen1-report-full.json");
        var brief = Parse("powerutils-bdn0.15.1-same-run-report-brief.json");
        const string key = "Demo.Benchmarks.StringProcessorBenchmarks.GenerateString [DefaultJob]";
        foreach (var result in new[] { full, brief })
        {
            Assert.Equal(1387184.3035442072, Single(result, key).Value);
            Assert.Equal(4429.6875, Single(result, key, Measures.Gen0).Value);
            Assert.Equal(164.0625, Single(result, key, Measures.Gen1).Value);
            Assert.Equal(0, Single(result, key, Measures.Gen2).Value);
            Assert.Equal(37093627, Single(result, key, Measures.Allocated).Value);
            Assert.Equal(82, Single(result, key).Samples!.Count);
        }
        // Full takes samples from Measurements, brief from Statistics.OriginalValues: the same 82 numbers.
        Assert.Equal(Single(full, key).Samples!, Single(brief, key).Samples!);
        Assert.Equal(Single(full, key).Summary, Single(brief, key).Summary);
    }

    [Fact]
    public void Legacy_0_9_schema_reads_with_its_own_confidence_level_ordinal()
    {
        var result = Parse("bencher-bdn0.9.9-legacy-schema-report.json");
        var sleep10 = Single(result, "BenchmarkDotNet.Samples.Intro.IntroJsonExport.Sleep10");
        Assert.Null(sleep10.Job);
        Assert.Equal(10362283.085796878, sleep10.Value);
        Assert.Equal(0.95, sleep10.Summary!.CiLevel); // Level 6 in the 0.9.x enum; Margin/Error = 1.96
        Assert.Equal(20, sleep10.Summary.N);
        Assert.Null(sleep10.Samples); // no Measurements, no OriginalValues in this schema
        Assert.Equal("Intel(R) Core(TM) i7-4702MQ CPU 2.20GHz", result.Environment["cpu"]); // ProcessorName.Value
    }

    [Fact]
    public void Old_full_export_without_memory_diagnoser_has_only_time()
    {
        var result = Parse("gab-bdn0.12.1-no-memory-report-full.json");
        Assert.All(result.Results, r => Assert.Equal(Measures.Time, r.Measure));
        var fib10 = Single(result, "Sample.Benchmarks.Fib10 [DefaultJob]");
        Assert.Equal(24.4202085009643, fib10.Value);
        Assert.Equal(14, fib10.Samples!.Count); // from OriginalValues: no Workload/Result measurements in 0.12.1
    }

    [Fact]
    public void Environment_comes_from_HostEnvironmentInfo()
    {
        var env = Parse("bencher-bdn0.15.8-windows-memory-report-full.json").Environment;
        Assert.Equal("AMD Ryzen 7 5800X", env["cpu"]);
        Assert.Equal("Windows 11 (10.0.26200.8037/25H2/2025Update/HudsonValley2)", env["os"]);
        Assert.Equal(".NET 10.0.4 (10.0.4, 10.0.426.12010)", env["runtime"]);
        Assert.Equal("0.15.8", env["bdn_version"]);
    }

    [Theory]
    [InlineData("needlr-hostbuild-report.csv", "CSV report")]
    [InlineData("needlr-hostbuild-failed-NA-report.csv", "CSV report")]
    [InlineData("needlr-hostbuild-report-github.md", "markdown report")]
    public void Csv_and_markdown_summaries_are_rejected_with_what_to_upload_instead(string name, string kind)
    {
        var ex = Assert.Throws<ParseException>(() => Parse(name));
        Assert.Equal(name, ex.File);
        Assert.Contains(kind, ex.Reason);
        Assert.Contains("report-full.json", ex.Reason);
    }

    [Fact]
    public void Csv_and_markdown_uploaded_next_to_the_json_export_are_skipped_with_a_warning()
    {
        var result = ResultParsers.Parse([
            File(Folder, "needlr-hostbuild-memory-shortrun-report-full-compressed.json"),
            File(Folder, "needlr-hostbuild-report.csv"),
            File(Folder, "needlr-hostbuild-report-github.md"),
        ]);
        Assert.Equal("bdn", result.Format);
        Assert.Equal(2986966.1, Single(result, "NexusLabs.Needlr.Benchmarks.Benchmarks.HostBuildBenchmarks.ManualDI_BuildHost [ShortRun]").Value);
        Assert.Equal(2, result.Warnings.Count(w => w.Contains("skipped")));
    }

    [Fact]
    public void Full_and_brief_exports_of_one_run_do_not_double_the_series()
    {
        var result = ResultParsers.Parse([File(Folder, "powerutils-bdn0.15.1-same-run-report-brief.json"), File(Folder, "powerutils-bdn0.15.1-gen0-gen1-report-full.json")]);
        Assert.Equal(5, result.Results.Count);
        Assert.Contains(result.Warnings, w => w.Contains("more than once"));
    }

    [Theory]
    [InlineData("\"Mean\": \"NaN\"", "$.Benchmarks[0].Statistics.Mean", "the string \"NaN\"")]
    [InlineData("\"Mean\": -5", "$.Benchmarks[0].Statistics.Mean", "≥ 0")]
    [InlineData("\"Mean\": 1e300", "$.Benchmarks[0].Statistics.Mean", "absurdly large")]
    [InlineData("\"Mean\": 1e999", "$.Benchmarks[0].Statistics.Mean", "out of range")]
    [InlineData("\"Mean\": true", "$.Benchmarks[0].Statistics.Mean", "expected a number")]
    public void Bad_statistics_are_reported_with_their_json_path(string mean, string path, string reason)
    {
        var json = """{"Title":"t","Benchmarks":[{"Type":"T","Method":"M","Statistics":{""" + mean + "}}]}";
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([Text("x-report-full.json", json)]));
        Assert.Equal(path, ex.Location);
        Assert.Contains(reason, ex.Reason);
    }

    [Fact]
    public void Missing_type_is_reported_with_its_path()
    {
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([Text("x.json", """{"Title":"t","Benchmarks":[{"Method":"M"}]}""")]));
        Assert.Equal("$.Benchmarks[0].Type", ex.Location);
    }

    [Fact]
    public void Truncated_export_reports_the_line_and_byte()
    {
        var bytes = File(Folder, "newday-bdn0.15.8-params-servergc-report-full.json").Content.ToArray();
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([new Artifact("cut.json", bytes[..5000])]));
        Assert.Equal("cut.json", ex.File);
        Assert.Matches(@"^line \d+, byte \d+$", ex.Location);
        Assert.Contains("not valid JSON", ex.Reason);
    }

    [Fact]
    public void Deeply_nested_json_is_rejected_without_blowing_the_stack()
    {
        var deep = new StringBuilder("{\"Title\":\"t\",\"Benchmarks\":").Append('[', 100_000).ToString();
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([Text("deep.json", deep)]));
        Assert.Contains("nested deeper than 64", ex.Reason);
    }

    [Theory]
    [InlineData("N=10&Mode=Fast", new[] { "N", "10", "Mode", "Fast" })]
    [InlineData("Text=a&b&N=1", new[] { "Text", "a&b", "N", "1" })]
    [InlineData("", new string[0])]
    public void Parameters_string_splits_on_ampersand_keeping_order(string text, string[] expected)
    {
        var pairs = BdnIdentity.Parameters(text).SelectMany(p => new[] { p.Key, p.Value });
        Assert.Equal(expected, pairs);
    }
}
