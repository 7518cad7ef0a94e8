using System.Text;
using PerfService.Core.Parsing;
using PerfService.Core.Parsing.Criterion;
using PerfService.Core.Results;
using static PerfService.Tests.Parsing.ParsingFixtures;

namespace PerfService.Tests.Parsing;

public class CriterionParserTests
{
    private const string Folder = "criterion";
    private static readonly CriterionParser _parser = new();

    [Fact]
    public void Tree_reads_new_estimates_and_derives_samples_from_sample_json()
    {
        var result = _parser.Parse(Tree(Folder, "cryptobench-criterion-0.5.1"));
        // Only new/ counts: base/ (identical) and change/ are ignored.
        var r = Assert.Single(result.Results);
        // benchmark.json full_id/group_id "aes_128_gcm-1KB" (the directory is lowercased "aes_128_gcm-1kb").
        Assert.Equal("aes_128_gcm-1KB", r.Name);
        Assert.Empty(r.Parameters);
        Assert.Null(r.Job);
        Assert.Equal(("time", "ns", Direction.LowerIsBetter), (r.Measure, r.Unit, r.Direction));
        // new/estimates.json: mean.point_estimate, median, std_dev, mean.confidence_interval (0.95).
        Assert.Equal(773.3684617656513, r.Value);
        Assert.Equal(772.1337636722252, r.Summary!.Median);
        Assert.Equal(8.219009696593925, r.Summary.StdDev);
        Assert.Equal(771.8806428241468, r.Summary.CiLower);
        Assert.Equal(775.0386318114688, r.Summary.CiUpper);
        Assert.Equal(0.95, r.Summary.CiLevel);
        // new/sample.json: times[i] / iters[i]; first 4135200.0 / 5070.0, last 389080100.0 / 507000.0.
        Assert.Equal(100, r.Samples!.Count);
        Assert.Equal(4135200.0 / 5070.0, r.Samples[0]);
        Assert.Equal(389080100.0 / 507000.0, r.Samples[^1]);
        Assert.Equal(757.7869822485208, r.Summary.Min);
        Assert.Equal(815.6213017751479, r.Summary.Max);
        Assert.Equal(100, r.Summary.N);
    }

    [Fact]
    public void Tree_with_value_str_and_named_baselines_gives_one_parameterised_result()
    {
        var result = _parser.Parse(Tree(Folder, "deduplicate-criterion-0.4-flat-named-baselines"));
        var r = Assert.Single(result.Results); // new/ only; base/, change/, 0.3.2/ and 0.3.6/ are ignored
        // benchmark.json: group_id "get", function_id "deduplicate get", value_str "1024".
        Assert.Equal("get/deduplicate get", r.Name);
        Assert.Equal([new("input", "1024")], r.Parameters);
        Assert.Equal(1761930.32, r.Value);                  // mean.point_estimate
        Assert.Equal(1698766.619047619, r.Summary!.Median);
        Assert.Equal(50931798.0 / 21.0, r.Samples![0]);    // Flat sampling: every iters entry is 21
        Assert.Equal(716543.9523809524, r.Summary.Min);
    }

    [Fact]
    public void Throughput_in_benchmark_json_becomes_a_higher_is_better_rate()
    {
        var files = Tree(Folder, "cryptobench-criterion-0.5.1")
            .Select(f => f.Path == "aes_128_gcm-1kb/new/benchmark.json"
                ? Text(f.Path, Encoding.UTF8.GetString(f.Content.Span).Replace("\"throughput\":null", "\"throughput\":{\"Bytes\":1024}"))
                : f)
            .ToList();
        var result = _parser.Parse(files);
        var t = Single(result, "aes_128_gcm-1KB", Measures.Throughput);
        Assert.Equal("bytes/s", t.Unit);
        Assert.Equal(Direction.HigherIsBetter, t.Direction);
        Assert.Equal(1024 / (773.3684617656513 * 1e-9), t.Value); // 1324077785.2 B/s from the 773.37 ns mean
        Assert.Equal(1024 / (815.6213017751479 * 1e-9), t.Samples![0]);
    }

    [Fact]
    public void Tree_without_new_directory_or_benchmark_json_is_rejected_clearly()
    {
        var baseOnly = Tree(Folder, "cryptobench-criterion-0.5.1").Where(f => !f.Path.Contains("/new/")).ToList();
        Assert.Contains("no new/ directory", Assert.Throws<ParseException>(() => _parser.Parse(baseOnly)).Reason);
        var noId = Tree(Folder, "cryptobench-criterion-0.5.1").Where(f => f.Path != "aes_128_gcm-1kb/new/benchmark.json").ToList();
        var ex = Assert.Throws<ParseException>(() => _parser.Parse(noId));
        Assert.Equal("aes_128_gcm-1kb/new/benchmark.json", ex.File);
        Assert.Contains("lowercased", ex.Reason);
    }

    [Fact]
    public void Criterion_0_2_layout_with_capitalised_keys_and_array_samples()
    {
        var result = _parser.Parse([
            Text("old/new/benchmark.json", """{"group_id":"Old","function_id":null,"value_str":null,"throughput":null,"full_id":"Old","directory_name":"old"}"""),
            Text("old/new/estimates.json", """{"Mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":95.0,"upper_bound":105.0},"point_estimate":100.0,"standard_error":2.0},"Median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":90.0,"upper_bound":110.0},"point_estimate":99.0,"standard_error":3.0},"StdDev":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":3.0},"point_estimate":2.0,"standard_error":0.5}}"""),
            Text("old/new/sample.json", "[[1.0,2.0],[100.0,220.0]]"),
        ]);
        var r = Assert.Single(result.Results);
        Assert.Equal((100.0, 99.0, 2.0), (r.Value!.Value, r.Summary!.Median!.Value, r.Summary.StdDev!.Value));
        Assert.Equal([100.0, 110.0], r.Samples!);
    }

    [Fact]
    public void Cargo_criterion_messages_use_the_id_and_derive_samples()
    {
        var result = _parser.Parse([File(Folder, "cargo-criterion-message-format-json-first-run-change-null.ndjson")]);
        Assert.Equal(12, result.Results.Count); // 12 benchmark-complete lines; group-complete ignored; throughput [] adds nothing
        var r = Single(result, "Queries/[LIGHT] Bam query all");
        // Line 1: mean {estimate 12384.362708639734, lower_bound 12333.018047376874, upper_bound 12439.607894674537}.
        Assert.Equal(12384.362708639734, r.Value);
        Assert.Equal(12342.126458243318, r.Summary!.Median);
        Assert.Equal(12333.018047376874, r.Summary.CiLower);
        Assert.Equal(12439.607894674537, r.Summary.CiUpper);
        Assert.Null(r.Summary.CiLevel); // not in the message
        Assert.Equal(50, r.Samples!.Count);
        Assert.Equal(23353750.0 / 1906, r.Samples[0]); // measured_values[0] / iteration_count[0]

        var second = _parser.Parse([File(Folder, "cargo-criterion-message-format-json-with-change-regressed.ndjson")]);
        Assert.Equal(54773.17273526619, Single(second, "Queries/[LIGHT] Bam query all").Value);
    }

    [Fact]
    public void Cargo_criterion_throughput_list_gives_a_rate()
    {
        var line = System.IO.File.ReadLines(TestPaths.Fixture(Folder, "cargo-criterion-message-format-json-first-run-change-null.ndjson")).First()
            .Replace("\"throughput\":[]", "\"throughput\":[{\"per_iteration\":1000,\"unit\":\"elements\"}]");
        var result = _parser.Parse([Text("t.ndjson", line)]);
        var t = Single(result, "Queries/[LIGHT] Bam query all", Measures.Throughput);
        Assert.Equal(("elements/s", Direction.HigherIsBetter), (t.Unit, t.Direction));
        Assert.Equal(1000 / (12384.362708639734 * 1e-9), t.Value);
    }

    [Fact]
    public void Broken_message_line_is_reported_by_line()
    {
        var lines = System.IO.File.ReadAllLines(TestPaths.Fixture(Folder, "cargo-criterion-message-format-json-first-run-change-null.ndjson"));
        var text = string.Join('\n', lines[0], lines[1][..200]);
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([Text("m.ndjson", text)]));
        Assert.StartsWith("line 2", ex.Location);
    }

    [Fact]
    public void Libtest_integer_and_fractional_values_with_thousands_separators()
    {
        // "test bench_fib_20 ... bench:      18,149 ns/iter (+/- 755)"
        var integer = _parser.Parse([File(Folder, "gab-libtest-bench-integer-ns.txt")]);
        Assert.Equal(135, Single(integer, "bench_fib_10").Value);
        Assert.Equal(18149, Single(integer, "bench_fib_20").Value);
        // "test bleu::benchmark::bench_batch_bleu     ... bench:  13,967,756.30 ns/iter (+/- 266,769.64)"
        var fractional = _parser.Parse([File(Folder, "bencher-libtest-bench-fractional-thousands-sep.txt")]);
        Assert.Equal(4, fractional.Results.Count); // the 9 "... ignored" tests are not results
        Assert.Equal(13967756.30, Single(fractional, "bleu::benchmark::bench_batch_bleu").Value);
        Assert.Equal(15690.73, Single(fractional, "tokenizer::benchmark::bench_tokenizer").Value);
    }

    [Fact]
    public void Libtest_FAILED_line_is_a_failed_result_with_the_panic()
    {
        var result = _parser.Parse([File(Folder, "bencher-libtest-bench-FAILED.txt")]);
        Assert.Equal(3296, Single(result, "tests::benchmark_a").Value);
        Assert.Equal(3215, Single(result, "tests::benchmark_c").Value);
        var failed = Single(result, "tests::benchmark_b");
        Assert.Null(failed.Value);
        Assert.Equal("the benchmark FAILED: thread 'main' panicked at 'explicit panic', src/tests.rs:28:9", failed.Error);
    }

    [Fact]
    public void Bencher_custom_units_keep_their_unit_and_per_second_is_higher_is_better()
    {
        var result = _parser.Parse([File(Folder, "gab-bencher-custom-units-cycles-MSps.txt")]);
        var cmov = Single(result, "cmov", "cycles/iter"); // "test cmov ... bench:        2835 cycles/iter (+/- 14)"
        Assert.Equal((2835.0, "cycles/iter", Direction.LowerIsBetter), (cmov.Value!.Value, cmov.Unit, cmov.Direction));
        var download = Single(result, "download", "MS/s"); // "test download ... bench:        9001 MS/s (+/- 69)"
        Assert.Equal((9001.0, Direction.HigherIsBetter), (download.Value!.Value, download.Direction));
    }

    [Fact]
    public void Criterion_bencher_output_between_warnings()
    {
        var result = _parser.Parse([File(Folder, "gab-criterion-bencher-format-with-warnings.txt")]);
        Assert.Equal(4, result.Results.Count);
        Assert.Equal(3268, Single(result, "Symbols (Execution)").Value);
        Assert.Equal(1672496, Single(result, "Fibonacci (Execution)").Value);
    }

    [Fact]
    public void Human_readable_criterion_output_is_rejected_with_advice()
    {
        // Decision: the default human output rounds to 4-5 digits and is not a stable format; machine formats exist.
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([File(Folder, "bencher-criterion-human-output-change-and-panic.txt")]));
        Assert.Equal("line 20", ex.Location); // "file                    time:   [2.0246 ns 2.2311 ns 2.4461 ns]"
        Assert.Contains("--output-format bencher", ex.Reason);
        Assert.Contains("--message-format=json", ex.Reason);
    }

    [Theory]
    [InlineData("test a ... bench:       NaN ns/iter (+/- 1)", "finite")]
    [InlineData("test a ... bench:       -5 ns/iter (+/- 1)", "≥ 0")]
    [InlineData("test a ... bench:       12", "expected 'bench:")]
    [InlineData("test a ... bench:       x12 ns/iter", "not a number")]
    public void Bad_bench_lines_are_errors_with_the_line(string line, string reason)
    {
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([Text("b.txt", "running 1 test\n" + line + "\n")]));
        Assert.Equal("line 2", ex.Location);
        Assert.Contains(reason, ex.Reason);
    }

    [Fact]
    public void Report_assets_next_to_a_tree_are_ignored()
    {
        var files = Tree(Folder, "cryptobench-criterion-0.5.1").Append(Text("aes_128_gcm-1kb/report/index.html", "<html></html>")).ToList();
        Assert.Single(ResultParsers.Parse(files).Results);
    }
}
