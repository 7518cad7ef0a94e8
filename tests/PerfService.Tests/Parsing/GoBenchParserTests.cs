using PerfService.Core.Parsing;
using PerfService.Core.Parsing.Go;
using PerfService.Core.Results;
using static PerfService.Tests.Parsing.ParsingFixtures;

namespace PerfService.Tests.Parsing;

public class GoBenchParserTests
{
    private const string Folder = "gobench";
    private static readonly GoBenchParser _parser = new();

    private static ParseResult Parse(string name) => _parser.Parse([File(Folder, name)]);

    [Fact]
    public void Web_app_load_metrics_keep_their_units_and_success_rate_is_higher_is_better()
    {
        // The shape benches/go's BenchmarkWebApp prints: TestMain's benchfmt unit line, then b.ReportMetric columns.
        const string output = """
            Unit success-% better=higher
            goos: linux
            goarch: amd64
            pkg: perfbench
            BenchmarkWebApp/memory/append/vus=100-2   2988   47362 ns/op   2.997 p50-ms   11.65 p90-ms   14.55 p95-ms   20.78 p99-ms   21114 req/s   100.0 success-%   9559 B/op   111 allocs/op
            BenchmarkWebApp/memory/append/vus=100-2   2817   50111 ns/op   3.120 p50-ms   12.01 p90-ms   15.02 p95-ms   21.50 p99-ms   19955 req/s   99.0 success-%   9560 B/op   111 allocs/op
            PASS
            """;
        var result = _parser.Parse([Text("gobench.txt", output)]);
        const string key = "perfbench.BenchmarkWebApp/memory/append/vus=100 [procs=2]";
        var success = Single(result, key, "success-%");
        Assert.Equal((99.5, "success-%", Direction.HigherIsBetter), (success.Value!.Value, success.Unit, success.Direction));
        Assert.Equal(Direction.HigherIsBetter, Single(result, key, "req/s").Direction);
        foreach (var p in new[] { "p50-ms", "p90-ms", "p95-ms", "p99-ms" })
            Assert.Equal(Direction.LowerIsBetter, Single(result, key, p).Direction);
        Assert.Equal(21.14, Single(result, key, "p99-ms").Value!.Value, 9);
    }

    [Fact]
    public void Count_20_repeats_are_the_samples_of_one_series()
    {
        var result = Parse("haxmap-count20-command-line-arguments.txt");
        // No pkg: header in this file, so the name has no package prefix; "-8" is GOMAXPROCS.
        var r = Single(result, "BenchmarkHaxMapReadsOnly [procs=8]");
        Assert.Equal("BenchmarkHaxMapReadsOnly", r.Name);
        Assert.Equal("procs=8", r.Job);
        // The 20 "BenchmarkHaxMapReadsOnly-8 … ns/op" values, lines 3-22, in order.
        double[] expected = [7386, 7380, 7367, 7296, 7351, 7494, 7299, 7318, 7588, 7279, 7299, 7391, 7493, 7272, 7318, 7303, 7393, 8210, 7303, 7289];
        Assert.Equal(expected, r.Samples!);
        Assert.Equal(expected.Average(), r.Value!.Value, 9);
        Assert.Equal(20, r.Summary!.N);
        Assert.Equal(7272, r.Summary.Min);
        Assert.Equal(8210, r.Summary.Max);
        Assert.Equal((7318 + 7351) / 2.0, r.Summary.Median); // 10th and 11th of the sorted 20
        Assert.Null(r.Summary.CiLower); // no confidence interval is invented
        Assert.Equal(20, Single(result, r.Key, Measures.Allocations).Samples!.Count);
        Assert.Equal(("darwin", "arm64"), (result.Environment["os"], result.Environment["arch"]));
    }

    [Fact]
    public void Count_10_with_MBps_before_B_per_op()
    {
        var result = Parse("goperf-suffixarray-benchmem-count10.txt");
        const string key = "index/suffixarray.BenchmarkNew/text=opticks/size=100K/bits=32 [procs=8]";
        double[] times = [4052123, 4072122, 4236652, 4033154, 4039300, 4047106, 4080614, 4628050, 4858420, 4775885];
        double[] rates = [24.68, 24.56, 23.60, 24.79, 24.76, 24.71, 24.51, 21.61, 20.58, 20.94];
        Assert.Equal(times, Single(result, key).Samples!);
        var throughput = Single(result, key, Measures.Throughput);
        Assert.Equal(rates, throughput.Samples!);
        Assert.Equal(("MB/s", Direction.HigherIsBetter), (throughput.Unit, throughput.Direction));
        Assert.Equal(("B", 10), (Single(result, key, Measures.Allocated).Unit, Single(result, key, Measures.Allocated).Samples!.Count));
        Assert.Equal("Intel(R) Core(TM) i7-8665U CPU @ 1.90GHz", result.Environment["cpu"]);
    }

    [Fact]
    public void Same_benchmark_name_in_two_packages_stays_two_series()
    {
        var result = Parse("gab-fiber-multipackage-MBps.txt");
        // pkg: …/middleware/cache: "BenchmarkAppendMsgitem-4  21228057  55.76 ns/op  2833.37 MB/s  0 B/op  0 allocs/op"
        var cache = Single(result, "github.com/gofiber/fiber/v3/middleware/cache.BenchmarkAppendMsgitem [procs=4]");
        // pkg: …/middleware/csrf: "BenchmarkAppendMsgitem-4  1000000000  0.3733 ns/op  2678.46 MB/s …"
        var csrf = Single(result, "github.com/gofiber/fiber/v3/middleware/csrf.BenchmarkAppendMsgitem [procs=4]");
        Assert.Equal(55.76, cache.Value);
        Assert.Equal(0.3733, csrf.Value);
        Assert.Equal(2833.37, Single(result, cache.Key, Measures.Throughput).Value);
        Assert.Equal(2678.46, Single(result, csrf.Key, Measures.Throughput).Value);
        Assert.Single(cache.Samples!);
    }

    [Fact]
    public void Custom_metrics_keep_their_unit_with_direction_from_the_unit()
    {
        var aux = Parse("bencher-space-separated-auxmetric.txt"); // fields separated by runs of spaces
        var metric = Single(aux, "bencher.dev.BenchmarkFib20WithAuxMetric [procs=8]", "auxMetricUnits");
        Assert.Equal(("auxMetricUnits", 4.0, Direction.LowerIsBetter), (metric.Unit, metric.Value!.Value, metric.Direction));
        Assert.Equal(25829, Single(aux, "bencher.dev.BenchmarkFib20WithAuxMetric [procs=8]").Value);
        Assert.Equal(210.2, Single(aux, "bencher.dev.BenchmarkFib10 [procs=8]").Value);

        // Custom units without ns/op, no -N suffix, "Unit … assume=exact" and "note:" lines; values beyond 2^32.
        var units = Parse("goperf-benchstat-unit-metadata-custom-units.txt");
        var b = Single(units, "BenchmarkImperceptible", "b-bytes");
        Assert.Null(b.Job);
        Assert.Equal([171717171716.0, 171717171717.0], b.Samples!); // "note: before" and "note: after" runs
        Assert.Equal([0.0, 100.0], Single(units, "BenchmarkNonZeroOverZero", "y").Samples!);
    }

    [Fact]
    public void Per_second_custom_metric_and_unit_metadata_set_higher_is_better()
    {
        var result = _parser.Parse([Text("m.txt", "Unit score better=higher\nBenchmarkQueue-4\t100\t12 ns/op\t5000 msgs/s\t7 score\t3 retries\n")]);
        Assert.Equal(Direction.HigherIsBetter, Single(result, "BenchmarkQueue [procs=4]", "msgs/s").Direction);
        Assert.Equal(Direction.HigherIsBetter, Single(result, "BenchmarkQueue [procs=4]", "score").Direction);
        Assert.Equal(Direction.LowerIsBetter, Single(result, "BenchmarkQueue [procs=4]", "retries").Direction);
    }

    [Fact]
    public void Hyphenated_sub_benchmarks_split_on_the_last_dash_and_big_values_survive()
    {
        var result = Parse("tommoulard-iter-m2pro-subbench-no-trailer.txt");
        // "BenchmarkGroupByInt/iter-large-10  1  1846593417 ns/op  4698254288 B/op  122 allocs/op"
        const string key = "github.com/tommoulard/iter/bench.BenchmarkGroupByInt/iter-large [procs=10]";
        Assert.Equal(1846593417, Single(result, key).Value);
        Assert.Equal(4698254288, Single(result, key, Measures.Allocated).Value);
        Assert.Equal(122, Single(result, key, Measures.Allocations).Value);
        Assert.Equal(8.096, Single(result, "github.com/tommoulard/iter/bench.BenchmarkZipInt/raw-small [procs=10]").Value);
    }

    [Fact]
    public void Odd_sub_benchmark_names_are_kept_verbatim()
    {
        var result = Parse("gab-fiber-no-header-odd-names.txt");
        Assert.Equal(307.1, Single(result, "Benchmark_Ctx_Accepts/run-[]string{\"json\",_\"xml\"} [procs=4]").Value);
        Assert.Equal(390.7, Single(result, "Benchmark_Utils_GetOffer/mime_extension#01 [procs=4]").Value);
        Assert.Equal(48, Single(result, "Benchmark_Utils_GetOffer/mime_extension#01 [procs=4]", Measures.Allocated).Value);
    }

    [Fact]
    public void Prose_before_the_header_is_ignored()
    {
        var result = Parse("goperf-benchstat-new-with-prose-preamble.txt");
        Assert.Equal(2, result.Results.Count);
        var json = Single(result, "golang.org/x/perf/cmd/benchstat/testdata.BenchmarkEncode/format=json [procs=48]");
        Assert.Equal(10, json.Samples!.Count);
        Assert.Equal(new double[] { 1423, 1416, 1411, 1413, 1412, 1426, 1422, 1424, 1447, 1425 }.Average(), json.Value!.Value, 9);
    }

    [Fact]
    public void Repeated_package_blocks_merge_into_25_samples()
    {
        var result = Parse("goperf-bent-multipackage-mixed-benchmem.txt");
        var r = Single(result, "github.com/minio/minio/cmd.BenchmarkGetObject5MbFS [procs=12]");
        Assert.Equal(25, r.Samples!.Count);
        Assert.Equal(4710258, r.Samples[0]); // first block: "BenchmarkGetObject5MbFS-12  270  4710258 ns/op …"
    }

    [Fact]
    public void Go_test_json_joins_split_output_per_package_and_records_failures()
    {
        // Shape of `go test -json -bench . ./...` (Go 1.21+): packages interleave and a result line is split in two events.
        const string stream = """
            {"Time":"2024-05-01T10:00:00Z","Action":"start","Package":"example.com/a"}
            {"Time":"2024-05-01T10:00:00Z","Action":"output","Package":"example.com/a","Output":"goos: linux\n"}
            {"Time":"2024-05-01T10:00:00Z","Action":"output","Package":"example.com/a","Output":"goarch: amd64\n"}
            {"Time":"2024-05-01T10:00:00Z","Action":"output","Package":"example.com/a","Output":"pkg: example.com/a\n"}
            {"Time":"2024-05-01T10:00:00Z","Action":"start","Package":"example.com/b"}
            {"Time":"2024-05-01T10:00:00Z","Action":"output","Package":"example.com/a","Output":"cpu: Intel(R) Xeon(R) CPU @ 2.20GHz\n"}
            {"Time":"2024-05-01T10:00:01Z","Action":"run","Package":"example.com/a","Test":"BenchmarkParse"}
            {"Time":"2024-05-01T10:00:01Z","Action":"output","Package":"example.com/a","Test":"BenchmarkParse","Output":"=== RUN   BenchmarkParse\n"}
            {"Time":"2024-05-01T10:00:01Z","Action":"output","Package":"example.com/a","Test":"BenchmarkParse","Output":"BenchmarkParse\n"}
            {"Time":"2024-05-01T10:00:02Z","Action":"output","Package":"example.com/a","Test":"BenchmarkParse","Output":"BenchmarkParse-8   \t"}
            {"Time":"2024-05-01T10:00:02Z","Action":"output","Package":"example.com/b","Output":"pkg: example.com/b\n"}
            {"Time":"2024-05-01T10:00:03Z","Action":"output","Package":"example.com/a","Test":"BenchmarkParse","Output":" 1000000\t      1052 ns/op\t     128 B/op\t       2 allocs/op\n"}
            {"Time":"2024-05-01T10:00:03Z","Action":"output","Package":"example.com/b","Test":"BenchmarkParse","Output":"BenchmarkParse-8   \t  500000\t      2100 ns/op\n"}
            {"Time":"2024-05-01T10:00:04Z","Action":"output","Package":"example.com/b","Test":"BenchmarkBroken","Output":"--- FAIL: BenchmarkBroken-8\n"}
            {"Time":"2024-05-01T10:00:04Z","Action":"output","Package":"example.com/b","Test":"BenchmarkBroken","Output":"    b_test.go:12: connection refused\n"}
            {"Time":"2024-05-01T10:00:04Z","Action":"output","Package":"example.com/a","Output":"PASS\n"}
            {"Time":"2024-05-01T10:00:04Z","Action":"output","Package":"example.com/a","Output":"ok  \texample.com/a\t3.1s\n"}
            {"Time":"2024-05-01T10:00:04Z","Action":"pass","Package":"example.com/a","Elapsed":3.1}
            {"Time":"2024-05-01T10:00:05Z","Action":"output","Package":"example.com/b","Output":"FAIL\n"}
            {"Time":"2024-05-01T10:00:05Z","Action":"fail","Package":"example.com/b","Elapsed":4.2}
            """;
        var result = ResultParsers.Parse([Text("bench.jsonl", stream)]);
        Assert.Equal("gobench", result.Format);
        Assert.Equal(1052, Single(result, "example.com/a.BenchmarkParse [procs=8]").Value);
        Assert.Equal(128, Single(result, "example.com/a.BenchmarkParse [procs=8]", Measures.Allocated).Value);
        Assert.Equal(2100, Single(result, "example.com/b.BenchmarkParse [procs=8]").Value);
        var broken = Single(result, "example.com/b.BenchmarkBroken [procs=8]");
        Assert.Null(broken.Value);
        Assert.Equal("go test reported --- FAIL: b_test.go:12: connection refused", broken.Error);
        Assert.Equal("Intel(R) Xeon(R) CPU @ 2.20GHz", result.Environment["cpu"]);
    }

    [Fact]
    public void Broken_json_event_is_reported_by_line()
    {
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([Text("e.json", "{\"Action\":\"output\",\"Package\":\"p\",\"Output\":\"x\\n\"}\n{\"Action\":\"outp")]));
        Assert.StartsWith("line 2", ex.Location);
    }

    [Theory]
    [InlineData("BenchmarkX-8\t100\tNaN ns/op", "finite")]
    [InlineData("BenchmarkX-8\t100\t-3 ns/op", "≥ 0")]
    [InlineData("BenchmarkX-8\t100\t1e300 ns/op", "absurdly large")]
    [InlineData("BenchmarkX-8\t100\tInfinity msgs/s", "finite")]
    public void Impossible_values_are_errors_with_the_line(string line, string reason)
    {
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([Text("g.txt", "goos: linux\n" + line + "\n")]));
        Assert.Equal(("g.txt", "line 2"), (ex.File, ex.Location));
        Assert.Contains(reason, ex.Reason);
    }

    [Fact]
    public void Malformed_benchmark_lines_are_skipped_with_a_warning_like_benchstat()
    {
        var result = _parser.Parse([Text("g.txt", "BenchmarkA-8\t100\t12 ns/op\nBenchmarkB-8\t100\t12\nBenchmarkC-8\t100\tabc ns/op\nBenchmarks are fun 1 2\n")]);
        Assert.Single(result.Results);
        Assert.Equal(2, result.Warnings.Count);
    }

    [Fact]
    public void A_file_without_benchmarks_is_an_error()
    {
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([Text("t.txt", "PASS\nok  \texample.com/a\t0.1s\n")]));
        Assert.Contains("no benchmark results", ex.Reason);
    }

    [Theory]
    [InlineData("BenchmarkZipInt/raw-small-10", "BenchmarkZipInt/raw-small", "10")]
    [InlineData("BenchmarkImperceptible", "BenchmarkImperceptible", null)]
    [InlineData("BenchmarkX/size-", "BenchmarkX/size-", null)]
    [InlineData("BenchmarkX/v1.2-beta", "BenchmarkX/v1.2-beta", null)]
    public void Procs_suffix_is_split_on_the_last_dash_only_when_numeric(string full, string name, string? procs) =>
        Assert.Equal((name, procs), GoBenchText.SplitProcs(full));
}
